/**
 * The founders' console: one page on 127.0.0.1 with the waitlist's funnel, sign-ups per day,
 * sources, the head of the line, "Invite next N", the held referral credits with Grant and
 * Refuse, the rewards ladder (how many reached each rung, held perks with Approve and Refuse, the
 * last perks granted), the research tasks (answers per option, the newest short answers with Revoke)
 * and the leaderboard's entries with Hide and Show (./research.ts), the webhook deliveries with
 * Resend on a failed one, and the 7-day bounce and complaint rates with Resume after an automatic
 * pause of sending. Node's own HTTP server, no framework.
 *
 * What it lets through (guard.ts says why): a Host that is itself, no Origin but its own and an
 * Origin on every action, and this run's token (in the printed address, then in the page's forms)
 * on every request for the page or an action. The service-role key stays in this process; the
 * page gets rendered figures and the names and e-mails it shows.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { readBodyCapped } from '../../../lib/http/body'
import { decideCredit, listHeldCredits } from '../credits'
import { decideReward, listGrantedPerks, listHeldRewards, readRewardCounts } from '../rewards'
import { hideOnBoard, revokeTask } from '../tasks'
import { readResearch, RESEARCH_OUTCOMES, type ResearchOutcome } from './research'
import { fetchExperimentCounts, fetchFigures, ownerClient, publishedQuestions, type OwnerClient, type Segment } from '../owner'
import { readAnswerCounts, segmentFrom } from '../segments'
import { ownOrigins, refusal, sameToken } from './guard'
import { createInviter, MAX_INVITE } from './invite'
import { TOP_SOURCES } from './figures'
import {
  CREDIT_OUTCOMES,
  LINE_HEAD,
  RECENT_INVITED,
  renderConsolePage,
  RESEND_OUTCOMES,
  SHOWN_PEOPLE,
  STYLE_HASH,
  type ConsoleView,
  type CreditOutcome,
  type RewardsView,
  type ExperimentsView,
  type LinePerson,
  type OutboxBacklog,
  type RecentInvitation,
  type ResendOutcome,
  type VitalsView,
} from './page'
import { posthogQueryEnv } from '../../../lib/env'
import { experimentResults } from '../../../components/variants/results'
import { configuredCampaigns, readCampaignResults, type CampaignsSource } from '../campaigns'
import { fetchParticipants } from '../../../components/variants/results-posthog'
import { fetchVitals } from '../../../components/analytics/vitals-posthog'
import type { PosthogQueryConfig } from '../../../lib/posthog/query'
import { listDeliveries, resendDelivery } from '../webhooks'
import { readMailHealth, resumeMail } from '../mail'

export const DEFAULT_PORT = 4400
/** An action's form is a token, a number or two and a fingerprint: a few hundred bytes. */
const MAX_FORM_BYTES = 4096
/** How many invitation results the page can still show after its redirect. */
const KEPT_RUNS = 20

export type ConsoleOptions = {
  /** Default 4400; 0 picks a free port. */
  port?: number
  /** Where the owner's commands read the project from: NEXT_PUBLIC_SUPABASE_URL, SUPABASE_SERVICE_ROLE_KEY. */
  env: Record<string, string | undefined>
  /** Receives what went wrong inside (never a request's token). */
  log?: (line: string) => void
  /** The clock the per-day figures end at (tests pin it to the database's). */
  now?: () => Date
  /** How PostHog's query API is reached (tests answer for it). */
  fetcher?: typeof fetch
  /** Where the published campaign versions are read (tests give their own); by default configuredCampaigns(). */
  campaigns?: CampaignsSource | null
}

export type RunningConsole = {
  /** The address to open: the console's own, with this run's token. */
  url: string
  port: number
  token: string
  /** The database it reads (its address; the key is never shown). */
  database: string
  local: boolean
  close(): Promise<void>
}

const HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': `default-src 'none'; style-src '${STYLE_HASH}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'X-Frame-Options': 'DENY',
  // The token is in the page's address: no request to another origin may carry it in a Referer.
  // Not `no-referrer`: with it Chromium sends `Origin: null` on the page's own form posts, which
  // the Origin check (guard.ts) must refuse.
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
}

const TOKEN_REFUSED = 'Refused: open the address the console printed when it started (it carries this run’s token).'

function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)), ...headers })
  response.end(body)
}

/** A whole number from 1 to MAX_INVITE, or null. */
function inviteCount(value: string | null): number | null {
  const count = value !== null && /^\d{1,5}$/.test(value) ? Number(value) : NaN
  return count >= 1 && count <= MAX_INVITE ? count : null
}

/** A held credit's number (public.waitlist_held_credits' id), or null. */
function creditId(value: string | null): number | null {
  return value !== null && /^[1-9]\d{0,14}$/.test(value) ? Number(value) : null
}

const outcomeOf = (url: URL) => CREDIT_OUTCOMES.find((known) => known === url.searchParams.get('outcome'))

/** What the page says after a decision: only one of the outcomes it knows, for a credit it names. */
function decided(url: URL): { id: number; outcome: CreditOutcome } | undefined {
  const id = creditId(url.searchParams.get('credit'))
  const outcome = outcomeOf(url)
  return id !== null && outcome ? { id, outcome } : undefined
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A held perk: the entry's id and the rung's key (supabase/schemas/18_rewards.sql's pattern), or null. */
function perkOf(entry: string | null, rung: string | null): { entry: string; rung: string } | null {
  return entry !== null && UUID.test(entry) && rung !== null && /^[a-z][a-z0-9-]{0,39}$/.test(rung) ? { entry, rung } : null
}

/** The same for a perk: an outcome it knows, for a perk it names. */
function decidedPerk(url: URL): { entry: string; rung: string; outcome: CreditOutcome } | undefined {
  const perk = perkOf(url.searchParams.get('perk'), url.searchParams.get('rung'))
  const outcome = outcomeOf(url)
  return perk !== null && outcome ? { ...perk, outcome } : undefined
}

/** What the page says after a Revoke, Hide or Show: an outcome it knows, for what it names (a task key, or a leaderboard name as the database holds it). */
function researchOutcome(url: URL): { what: string; outcome: ResearchOutcome } | undefined {
  const outcome = RESEARCH_OUTCOMES.find((known) => known === url.searchParams.get('research'))
  const what = url.searchParams.get('what')
  return outcome && what && /^[a-z][a-z0-9-]{0,39}$|^an entry$/.test(what) ? { what, outcome } : undefined
}

/** The rewards part of the page: three index reads (supabase/schemas/18_rewards.sql). */
async function readRewards(client: OwnerClient): Promise<RewardsView> {
  const [counts, held, granted] = await Promise.all([readRewardCounts(client), listHeldRewards(client), listGrantedPerks(client)])
  return { counts, held, granted }
}

/** A webhook delivery's id (an outbox message's uuid), or null. */
function deliveryId(value: string | null): string | null {
  return value !== null && UUID.test(value) ? value : null
}

/** What the page says after a resend: only an outcome it knows, for a delivery it names. */
function resent(url: URL): { id: string; outcome: ResendOutcome } | undefined {
  const id = deliveryId(url.searchParams.get('delivery'))
  const outcome = RESEND_OUTCOMES.find((known) => known === url.searchParams.get('resend'))
  return id !== null && outcome ? { id, outcome } : undefined
}

async function lineHead(client: OwnerClient): Promise<LinePerson[]> {
  const { data, error } = await client.rpc('waitlist_line_head', { n: LINE_HEAD })
  if (error) throw new Error(`Could not read the line: ${error.message}`)
  return data as LinePerson[]
}

async function recentInvitations(client: OwnerClient): Promise<RecentInvitation[]> {
  const { data, error } = await client.rpc('waitlist_recent_invitations', { n: RECENT_INVITED })
  if (error) throw new Error(`Could not read the invitations: ${error.message}`)
  return data as unknown as RecentInvitation[]
}

async function outboxBacklog(client: OwnerClient): Promise<OutboxBacklog> {
  const { data, error } = await client.rpc('waitlist_outbox_backlog')
  if (error) throw new Error(`Could not read the outbox: ${error.message}`)
  return data as unknown as OutboxBacklog
}

/**
 * Sign-ups and confirmations per experiment and variant from the database; participants from
 * PostHog when configured. PostHog failing costs the page nothing but the participants.
 */
async function experiments(client: OwnerClient, posthog: PosthogQueryConfig | null, fetcher: typeof fetch | undefined): Promise<ExperimentsView> {
  const counts = await fetchExperimentCounts(client)
  if (!posthog) return { results: experimentResults(counts, null), participants: { kind: 'not-configured' } }
  try {
    const participants = await fetchParticipants(posthog, [...new Set(counts.map((row) => row.experiment))], fetcher)
    return { results: experimentResults(counts, participants), participants: { kind: 'read' } }
  } catch (error) {
    return { results: experimentResults(counts, null), participants: { kind: 'failed', reason: error instanceof Error ? error.message : String(error) } }
  }
}

/** Real visitors' Web Vitals when PostHog's query API is configured; its failure costs the page nothing else. */
async function vitals(posthog: PosthogQueryConfig | null, fetcher: typeof fetch | undefined): Promise<VitalsView> {
  if (!posthog) return { kind: 'not-configured' }
  try {
    return { kind: 'read', routes: await fetchVitals(posthog, fetcher) }
  } catch (error) {
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) }
  }
}

/** The form body, read up to MAX_FORM_BYTES with the site's own capped reader. */
async function readForm(request: IncomingMessage): Promise<URLSearchParams | null> {
  const headers = new Headers()
  if (request.headers['content-length'] !== undefined) headers.set('content-length', request.headers['content-length'])
  // A streamed body needs `duplex`, which TypeScript's DOM types do not list yet.
  const init: RequestInit & { duplex: 'half' } = { method: 'POST', headers, body: Readable.toWeb(request) as ReadableStream<Uint8Array>, duplex: 'half' }
  const read = await readBodyCapped(new Request('http://console.invalid/', init), MAX_FORM_BYTES)
  return read.ok ? new URLSearchParams(new TextDecoder().decode(read.bytes)) : null
}

export async function startConsole({
  port = DEFAULT_PORT,
  env,
  log = (line) => console.error(line),
  now = () => new Date(),
  fetcher,
  campaigns: campaignsSource,
}: ConsoleOptions): Promise<RunningConsole> {
  const { config, client } = ownerClient(env)
  const campaignsFrom = campaignsSource === undefined ? configuredCampaigns(config.local) : campaignsSource
  const posthog = posthogQueryEnv(env)
  const inviter = createInviter(client)
  const token = randomBytes(32).toString('base64url')
  const runs = new Map<string, NonNullable<ConsoleView['invited']> & { n: number; segment: Segment | null }>()
  let listening = port

  async function page(url: URL, response: ServerResponse): Promise<void> {
    if (!sameToken(url.searchParams.get('token'), token)) return send(response, 403, TOKEN_REFUSED)
    const asked = url.searchParams.get('n')
    const n = asked === null ? null : inviteCount(asked)
    if (asked !== null && n === null) return send(response, 400, `How many: a whole number from 1 to ${MAX_INVITE}.`)
    const invited = runs.get(url.searchParams.get('run') ?? '')
    // "Invite next N" of those who answered so: the ticked answers, checked against the questions published now.
    let segment: Segment | null = null
    const where = url.searchParams.getAll('where')
    if (where.length > 0) {
      let questions
      try {
        questions = await publishedQuestions(client)
      } catch (error) {
        return send(response, 502, `Could not read the waitlist at ${config.url}: ${error instanceof Error ? error.message : String(error)}`)
      }
      const chosen = segmentFrom(where, questions)
      if ('problem' in chosen) return send(response, 400, `${chosen.problem}.`)
      segment = chosen.segment
    }
    let read
    try {
      // All at once: the page waits for the slowest read (the figures' one scan of the list, which
      // counts the funnel too), not their sum.
      read = await Promise.all([
        fetchFigures(client, { topSources: TOP_SOURCES }),
        recentInvitations(client),
        outboxBacklog(client),
        lineHead(client),
        listHeldCredits(client),
        listDeliveries(client),
        n === null ? undefined : inviter.preview(n, segment),
        experiments(client, posthog, fetcher),
        readCampaignResults(client, campaignsFrom),
        vitals(posthog, fetcher),
        readAnswerCounts(client),
        readRewards(client),
        readResearch(client),
        readMailHealth(client),
      ])
    } catch (error) {
      return send(response, 502, `Could not read the waitlist at ${config.url}: ${error instanceof Error ? error.message : String(error)}`)
    }
    const [figures, invitations, backlog, line, held, deliveries, preview, experimentsView, campaignsView, vitalsView, answers, rewards, research, mail] = read
    const body = renderConsolePage({
      database: config.url,
      readAt: now(),
      token,
      funnel: figures.funnel,
      figures,
      recentInvitations: invitations,
      backlog,
      line,
      held,
      decided: decided(url),
      rewards,
      decidedPerk: decidedPerk(url),
      research,
      researchOutcome: researchOutcome(url),
      deliveries,
      resent: resent(url),
      mail,
      resumed: url.searchParams.has('resumed') ? url.searchParams.get('resumed') === '1' : undefined,
      n: n ?? invited?.n ?? 5,
      answers,
      segment: segment ?? invited?.segment ?? null,
      preview,
      changed: preview && url.searchParams.has('changed'),
      invited,
      experiments: experimentsView,
      campaigns: campaignsView,
      vitals: vitalsView,
    })
    send(response, 200, body, { 'Content-Type': 'text/html; charset=utf-8' })
  }

  /** An action's form when it carries this run's token; otherwise the refusal is sent and null returned. */
  async function actionForm(request: IncomingMessage, response: ServerResponse): Promise<URLSearchParams | null> {
    if ((request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
      send(response, 415, 'An action is a form.')
      return null
    }
    const form = await readForm(request)
    if (!form) {
      send(response, 413, 'Too large.')
      return null
    }
    if (!sameToken(form.get('token'), token)) {
      send(response, 403, TOKEN_REFUSED)
      return null
    }
    return form
  }

  async function invite(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await actionForm(request, response)
    if (!form) return
    const n = inviteCount(form.get('n'))
    const expected = form.get('expect')
    if (n === null || !expected) return send(response, 400, 'Preview first: an invitation names how many and whom the preview showed.')
    const where = form.getAll('where')
    let segment: Segment | null = null
    if (where.length > 0) {
      const chosen = segmentFrom(where, await publishedQuestions(client))
      if ('problem' in chosen) return send(response, 400, `${chosen.problem}.`)
      segment = chosen.segment
    }
    const result = await inviter.invite(n, segment, expected)
    const query = new URLSearchParams({ token })
    if (result.outcome === 'changed') {
      query.set('n', String(n))
      for (const condition of where) query.append('where', condition)
      query.set('changed', '1')
    } else {
      const id = randomBytes(12).toString('base64url')
      // Kept for the redirect's page, which lists only the first SHOWN_PEOPLE of up to 10,000.
      runs.set(id, { count: result.people.length, people: result.people.slice(0, SHOWN_PEOPLE), asPreviewed: result.asPreviewed, n, segment })
      if (runs.size > KEPT_RUNS) runs.delete(runs.keys().next().value!)
      query.set('run', id)
    }
    // Post/Redirect/Get: reloading the result page cannot press Invite again.
    send(response, 303, '', { Location: `/?${query}#invite` })
  }

  /**
   * Grant or Refuse on what is held for a founder (a referral credit, a perk): the database decides
   * each once, so a second press changes nothing. `held` reads what the form names, `query` says
   * it back to the page after the redirect.
   */
  function decision<Held>({
    held,
    decide,
    query,
    anchor,
    refused,
  }: {
    held: (form: URLSearchParams) => Held | null
    decide: (what: Held, grant: boolean) => Promise<{ decision: 'granted' | 'refused'; changed: boolean } | null>
    query: (what: Held) => Record<string, string>
    anchor: string
    refused: string
  }) {
    return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
      const form = await actionForm(request, response)
      if (!form) return
      const what = held(form)
      const pressed = form.get('decision')
      if (what === null || (pressed !== 'grant' && pressed !== 'refuse')) return send(response, 400, refused)
      const result = await decide(what, pressed === 'grant')
      const outcome: CreditOutcome = result === null ? 'unknown' : result.changed ? result.decision : `already-${result.decision}`
      // Post/Redirect/Get, as for invitations: reloading the result cannot press again.
      send(response, 303, '', { Location: `/?${new URLSearchParams({ token, ...query(what), outcome })}#${anchor}` })
    }
  }

  const credit = decision({
    held: (form) => creditId(form.get('id')),
    decide: (id, grant) => decideCredit(client, id, grant),
    query: (id) => ({ credit: String(id) }),
    anchor: 'credits',
    refused: 'A decision names a held credit and Grant or Refuse.',
  })

  const perk = decision({
    held: (form) => perkOf(form.get('entry'), form.get('rung')),
    decide: ({ entry, rung }, grant) => decideReward(client, entry, rung, grant),
    query: ({ entry, rung }) => ({ perk: entry, rung }),
    anchor: 'rewards',
    refused: 'A decision names a held perk (its person and rung) and Approve or Refuse.',
  })

  /** Revoke on a task's answer: the database takes it back once, so a second press changes nothing. */
  async function revoke(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await actionForm(request, response)
    if (!form) return
    // A task's key has a rung's shape (supabase/schemas/19_tasks.sql).
    const named = perkOf(form.get('entry'), form.get('task'))
    if (named === null) return send(response, 400, 'A revoke names a person and a task.')
    const { entry, rung: task } = named
    const result = await revokeTask(client, entry, task)
    const outcome: ResearchOutcome = result === null ? 'unknown' : result.changed ? 'revoked' : 'already-revoked'
    send(response, 303, '', { Location: `/?${new URLSearchParams({ token, what: task, research: outcome })}#research` })
  }

  /** Hide or Show on a leaderboard entry: once each, as the database decides. */
  async function board(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await actionForm(request, response)
    if (!form) return
    const entry = form.get('entry')
    const hide = form.get('hide')
    if (entry === null || !UUID.test(entry) || (hide !== 'true' && hide !== 'false'))
      return send(response, 400, 'A change names an entry and whether to hide it.')
    const result = await hideOnBoard(client, entry, hide === 'true')
    const done: ResearchOutcome = hide === 'true' ? 'hidden' : 'shown'
    const outcome: ResearchOutcome = result === null ? 'unknown' : result.changed ? done : done === 'hidden' ? 'already-hidden' : 'already-shown'
    // The page names no one in its address: "an entry", the table says who.
    send(response, 303, '', { Location: `/?${new URLSearchParams({ token, what: 'an entry', research: outcome })}#research` })
  }

  /** Resend on a failed webhook delivery: the database puts it back only while it is failed, so a second press changes nothing. */
  async function webhook(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await actionForm(request, response)
    if (!form) return
    const id = deliveryId(form.get('id'))
    if (id === null) return send(response, 400, 'A resend names a webhook delivery.')
    const outcome: ResendOutcome = (await resendDelivery(client, id)) ? 'resent' : 'not-failed'
    send(response, 303, '', { Location: `/?${new URLSearchParams({ token, delivery: id, resend: outcome })}#webhooks` })
  }

  /** Resume after an automatic pause of sending (tools/owner/mail.ts): a second press changes nothing. */
  async function mailResume(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await actionForm(request, response)
    if (!form) return
    const resumed = await resumeMail(client)
    send(response, 303, '', { Location: `/?${new URLSearchParams({ token, resumed: resumed ? '1' : '0' })}#deliverability` })
  }

  const actions: Record<string, (request: IncomingMessage, response: ServerResponse) => Promise<void>> = {
    '/mail-resume': mailResume,
    '/invite': invite,
    '/credit': credit,
    '/perk': perk,
    '/webhook': webhook,
    '/revoke': revoke,
    '/board': board,
  }

  const server = createServer((request, response) => {
    const refused = refusal(request, listening)
    if (refused) return send(response, refused.status, refused.message)
    const url = new URL(request.url!, ownOrigins(listening)[0])
    const route = `${request.method} ${url.pathname}`
    const action = Object.hasOwn(actions, url.pathname) ? actions[url.pathname] : undefined
    const handled = route === 'GET /' ? page(url, response) : request.method === 'POST' && action ? action(request, response) : null
    if (!handled)
      return url.pathname === '/' || action
        ? send(response, 405, 'Method not allowed.', { Allow: url.pathname === '/' ? 'GET' : 'POST' })
        : send(response, 404, 'Not found.')
    handled.catch((error: unknown) => {
      log(`[console] ${route}: ${error instanceof Error ? error.message : String(error)}`)
      if (!response.headersSent) send(response, 500, 'The console failed; its terminal says why.')
      else response.destroy()
    })
  })

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    // 127.0.0.1 only: never another interface, whatever the machine's network.
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  listening = (server.address() as AddressInfo).port

  return {
    url: `${ownOrigins(listening)[0]}/?token=${token}`,
    port: listening,
    token,
    database: config.url,
    local: config.local,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
