/**
 * The outbox dispatcher: takes the waitlist's due messages (public.waitlist_outbox_claim,
 * supabase/schemas/07_outbox.sql), sends each once and marks it. Server only; the transports and
 * the database are passed in, so tests can run it against real ones or break them on purpose.
 *
 * Delivery rules:
 * - a message is sent only under the lease its claim took, and marked with that lease; the database
 *   refuses to complete or fail it once the lease ran out or another run took it;
 * - right before each send the database checks the lease again and re-reads the person
 *   (waitlist_outbox_begin_send): someone who erased their data meanwhile is not sent anything,
 *   and what leaves names them as they are written now;
 * - a run has a time budget well below the lease (RUN_BUDGET_MS, and half the lease at most): what
 *   it had no time to start it puts back, uncounted, and every send it started ends, by its own
 *   timeout or the run's hard stop, before the lease does (so a live send is never taken for a dead
 *   dispatcher, and entry.left, which waits for the lease, never overtakes it);
 * - e-mails and the HTTP messages (Slack, webhooks) go in two lanes at once: e-mails one by one, so
 *   a hung webhook receiver never delays a sign-up's link, and HTTP messages WEBHOOK_CONCURRENCY at
 *   a time, one person's in order, so a receiver that hangs costs one timeout per round, not per
 *   message (the database also claims e-mails first);
 * - the database unreachable mid-run stops the run (nothing more is sent); what it held comes back
 *   after the lease, uncounted when it was never handed over;
 * - a failed send is recorded (error, attempt count) and retried later with exponential backoff
 *   by the database, so an SMTP outage loses nothing;
 * - nothing runs between a successful send and its mark but the mark itself: a failure there (a
 *   crash, the database gone) leaves the message 'sending', which the next claim after the lease
 *   marks 'in_doubt' instead of sending it again (no duplicate);
 * - a link e-mail (confirmation, or a fresh link to the person's own page) gets a new token, minted
 *   here, whose hash is stored before sending; it carries nothing the visitor typed, not even in the
 *   To: display name, since anyone can make us send one to any address;
 * - an invitation (and its reminder) gets an invitation token the same way; its button opens the
 *   product's app, and it greets the person by name (the founders chose to send it, to an address
 *   that confirmed itself);
 * - every e-mail to a person on the list carries a one-click unsubscribe token of its own (RFC 8058
 *   headers, and a visible link), minted and stored the same way;
 * - an update e-mail (a post the founders chose to e-mail, supabase/schemas/09_updates.sql)
 *   carries the post's title, summary and path in its message; its unsubscribe token stops updates
 *   only (the database scopes it by the message's kind), and the database refuses that token, so the
 *   e-mail is skipped, when the person no longer wants updates;
 * - a reward e-mail (a rung of the ladder granted, supabase/schemas/18_rewards.sql) names the rung;
 *   its words are the ladder's as published at send time, and a rung no longer published is skipped;
 * - an erasure e-mail ("Delete me") goes to the address its message carries, the entry being gone;
 *   the database empties that payload when the message is marked;
 * - every e-mail is written in the person's language (the database writes it into each message when
 *   it is queued: waitlist_outbox_language in supabase/schemas/07_outbox.sql), its links lead to pages in it, and
 *   English, its words and its pages, stands in for a language the site no longer publishes (emailLanguage);
 * - a failure is recorded and reported without the recipient's address or name (an SMTP rejection
 *   quotes them), for every kind;
 * - a webhook (./webhook.ts) is signed and POSTed to WAITLIST_WEBHOOK_URL, at least once: unlike an
 *   e-mail, a lost lease sends it again, with the same webhook-id, and a failure the receiver's
 *   answer makes final (a redirect, a 4xx other than 408/429) is marked failed at once. Without a
 *   receiver configured it is skipped (nothing fails, and the database deletes it later).
 */
import { invitationUrl } from '@/components/waitlist/invitation-url'
import { referralLink } from '@/components/waitlist/link'
import { leavePageUrl, unsubscribeUrl, UPDATES_TOKEN_PREFIX } from '@/components/waitlist/unsubscribe-path'
import {
  formatExpiry,
  renderErasureEmail,
  renderInvitationEmail,
  renderLinkEmail,
  renderRewardEmail,
  renderUpdateEmail,
  type EmailChannel,
  type RenderedEmail,
} from './email'
import { slackConfirmedBody, slackJoinedBody, slackRewardBody, type SlackChannel, type SlackJoinedPayload, type SlackRewardPayload } from './slack'
import { confirmationUrl, mintToken } from './token'
import { webhookEvent, webhookId, WebhookDeliveryError, type WebhookChannel, type WebhookPayload } from './webhook'
import type { WaitlistEmailCopy } from '@/sanity/content/types'
import { DEFAULT_LANGUAGE } from '@/lib/i18n/languages'
import type { ClaimedEntry } from './entry'

export type { ClaimedEntry }

/** lease_ms: the lease's length, which the database states with every claimed message. */
type ClaimedBase = { id: string; lease_id: string; attempts: number; lease_ms?: number }

/** What waitlist_broadcast_post wrote into each update e-mail's message. */
export type UpdatePayload = { post_id: string; title: string; excerpt: string; path: string }

/** What the database wrote into a reward e-mail's message (supabase/schemas/18_rewards.sql): the rung's key. */
export type RewardPayload = { rung: string }

/** A claimed message; an erasure e-mail's entry is already gone, its payload is all it has. */
export type ClaimedMessage =
  | (ClaimedBase & { kind: 'confirmation_email' | 'access_email'; payload: { import?: string }; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'invitation_email' | 'reminder_email'; payload: { invitation_id?: string }; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'update_email'; payload: UpdatePayload; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'reward_email'; payload: RewardPayload; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'slack_confirmed'; payload: { total?: number }; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'slack_joined'; payload: SlackJoinedPayload; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'slack_reward'; payload: SlackRewardPayload; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'erasure_email'; payload: { email: string; name: string }; entry: null })
  | (ClaimedBase & { kind: 'webhook'; payload: WebhookPayload; entry: ClaimedEntry | null })

/** The dispatcher's side of the database (components/waitlist/outbox/store.ts over supabase-js; tests may wrap it). */
export interface OutboxStore {
  claim(maxMessages: number): Promise<ClaimedMessage[]>
  /** Stores a link's token hash (confirmation, the person's page, the invitation); the date the e-mail states, or null when the message no longer applies. */
  attachToken(message: ClaimedMessage, tokenHash: string): Promise<Date | null>
  /** Stores the e-mail's one-click unsubscribe token hash; false when the lease was lost. */
  attachUnsubscribe(message: ClaimedMessage, tokenHash: string): Promise<boolean>
  /**
   * The last check, right before the send: the person as now written (null for a message about
   * nobody), or null when the message must not leave (the person erased, the lease gone).
   */
  beginSend(message: ClaimedMessage): Promise<{ entry: ClaimedEntry | null } | null>
  complete(message: ClaimedMessage, outcome: 'sent' | 'skipped', note?: string): Promise<boolean>
  /** `final`: not worth retrying (marked failed at once). */
  fail(message: ClaimedMessage, error: string, final?: boolean): Promise<string | null>
  /** Puts back a message this run had no time for (never handed over): due now, the attempt uncounted. */
  release(message: ClaimedMessage): Promise<boolean>
  purgePending(): Promise<number>
}

export type DispatchOptions = {
  store: OutboxStore
  email: EmailChannel
  /** Null when SLACK_WAITLIST_WEBHOOK_URL is not set: Slack messages are skipped, nothing fails. */
  slack: SlackChannel | null
  slackIncludeEmail: boolean
  /** Null when WAITLIST_WEBHOOK_URL is not set: webhooks are skipped, nothing fails. */
  webhook?: WebhookChannel | null
  /** The e-mails' words in a language (English's where the language has none). */
  copy: (language: string) => Promise<WaitlistEmailCopy>
  /**
   * The languages the site publishes now: an e-mail to a person stored in any other (one the site
   * stopped publishing) is written in English and leads to English pages, never to addresses that
   * answer 404. Without it every stored language is taken as published.
   */
  languages?: () => Promise<readonly string[]>
  /** The product's app (Site settings → App address), where invitations lead. */
  appUrl: () => Promise<string>
  siteUrl: string
  maxMessages?: number
  /** How long a run starts sends (RUN_BUDGET_MS by default; never more than half the lease). */
  budgetMs?: number
  /** How many HTTP messages (Slack, webhooks) are on the wire at once (WEBHOOK_CONCURRENCY by default). */
  concurrency?: number
}

/** released: claimed but put back, the run's budget spent (or the database gone). */
export type DispatchReport = { claimed: number; sent: number; skipped: number; failed: number; released: number; purged: number; errors: string[] }

/**
 * A run starts no send after this. With the slowest send the run may still start (an e-mail: the
 * SMTP timeouts, about 50 s, components/waitlist/outbox/email.ts), it ends within the 2-minute lease.
 */
export const RUN_BUDGET_MS = 45_000
/** Every send the run started is given up this long before its lease ends (the hard stop; a tenth of a shorter lease). */
export const LEASE_MARGIN_MS = 5_000
export const WEBHOOK_CONCURRENCY = 4
/** What a run assumes when a message does not state its lease (the database's default). */
const DEFAULT_LEASE_MS = 120_000

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    return `${typeof code === 'string' ? `${code}: ` : ''}${error.message}`.slice(0, 500)
  }
  return String(error).slice(0, 500)
}

const ADDRESS = /[^\s<>()",;:]+@[^\s<>()",;:]+/g

/**
 * An error as it is stored and reported (and so logged): never the recipient's address or name,
 * which SMTP rejections quote ("550 5.1.1 <ada@example.com>"). Any address is replaced, and the
 * name wherever it appears, whatever the case.
 */
export function redactedError(reason: string, message: ClaimedMessage): string {
  const name = (message.kind === 'erasure_email' ? message.payload.name : (message.entry?.name ?? '')).trim()
  const withoutAddresses = reason.replace(ADDRESS, '[address]')
  if (name.length < 2) return withoutAddresses
  return withoutAddresses.replace(new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '[name]')
}

type Outcome = { outcome: 'sent' | 'skipped'; note?: string }

/** The person's language, which the database wrote into the message when it was queued (English for one queued before languages). */
export const messageLanguage = (message: ClaimedMessage): string =>
  ((message.payload as { language?: unknown }).language as string | undefined) ?? DEFAULT_LANGUAGE

/** The language an e-mail is written in and its links lead to: the person's, while the site publishes it. */
async function emailLanguage(message: ClaimedMessage, options: Pick<DispatchOptions, 'languages'>): Promise<string> {
  const language = messageLanguage(message)
  if (language === DEFAULT_LANGUAGE || !options.languages) return language
  return (await options.languages()).includes(language) ? language : DEFAULT_LANGUAGE
}

const WITHDRAWN: Outcome = {
  outcome: 'skipped',
  note: 'Not sent: the person erased their data, the address was suppressed, or the lease ran out, before it left.',
}

/** A send the run's hard stop cut short: whether it left is unknown, so it is neither failed (retried) nor marked. */
export class RunDeadlineError extends Error {
  override name = 'RunDeadlineError'
}

/** A database call that failed: the run stops, and its messages come back after their lease. */
class StoreError extends Error {
  override name = 'StoreError'
  constructor(readonly original: unknown) {
    super(describeError(original))
  }
}

type Run = {
  /** The hard stop: aborts what is still on the wire before the lease ends. */
  signal: AbortSignal
  /** Whether a send may still start. */
  open(): boolean
  /** Waits for a send the hard stop cannot cancel (SMTP, Slack's client) no longer than the run. */
  bounded<T>(send: Promise<T>): Promise<T>
}

function startRun(started: number, budgetMs: number, hardStopMs: number): Run {
  const signal = AbortSignal.timeout(Math.max(0, started + hardStopMs - Date.now()))
  return {
    signal,
    open: () => Date.now() < started + budgetMs && !signal.aborted,
    bounded: (send) =>
      new Promise((resolve, reject) => {
        const stop = () =>
          reject(new RunDeadlineError('The dispatch run’s time ran out before the transport answered; it may have been delivered, so it is left in doubt.'))
        if (signal.aborted) return stop()
        signal.addEventListener('abort', stop, { once: true })
        send.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
      }),
  }
}

/** The store with every failure marked as the database's (not the transport's). */
function guarded(store: OutboxStore): OutboxStore {
  const wrap =
    <Args extends unknown[], Result>(call: (...args: Args) => Promise<Result>) =>
    (...args: Args): Promise<Result> =>
      call(...args).catch((error: unknown) => {
        throw new StoreError(error)
      })
  return {
    claim: wrap(store.claim.bind(store)),
    attachToken: wrap(store.attachToken.bind(store)),
    attachUnsubscribe: wrap(store.attachUnsubscribe.bind(store)),
    beginSend: wrap(store.beginSend.bind(store)),
    complete: wrap(store.complete.bind(store)),
    fail: wrap(store.fail.bind(store)),
    release: wrap(store.release.bind(store)),
    purgePending: wrap(store.purgePending.bind(store)),
  }
}

/** The last check (waitlist_outbox_begin_send): the person as written now, or null when the message must not leave. */
async function lastCheck<Message extends ClaimedMessage>(message: Message, store: OutboxStore): Promise<{ entry: Message['entry'] } | null> {
  const fresh = await store.beginSend(message)
  if (!fresh) return null
  // The database returns an entry exactly when the message is about one.
  if ((fresh.entry === null) !== (message.entry === null)) throw new Error(`${message.kind} ${message.id}: the database's entry does not match the claim's.`)
  return fresh as { entry: Message['entry'] }
}

async function deliver(message: ClaimedMessage, options: DispatchOptions, run: Run): Promise<Outcome> {
  const { store } = options
  if (message.kind === 'webhook') {
    if (!options.webhook) return { outcome: 'skipped', note: 'WAITLIST_WEBHOOK_URL is not set.' }
    const fresh = await lastCheck(message, store)
    if (!fresh) return WITHDRAWN
    await options.webhook({ id: webhookId(message.id), body: JSON.stringify(webhookEvent(message.payload, fresh.entry)), signal: run.signal })
    return { outcome: 'sent' }
  }
  if (message.kind === 'slack_confirmed' || message.kind === 'slack_joined' || message.kind === 'slack_reward') {
    if (!options.slack) return { outcome: 'skipped', note: 'SLACK_WAITLIST_WEBHOOK_URL is not set.' }
    const fresh = await lastCheck(message, store)
    if (!fresh) return WITHDRAWN
    const body =
      message.kind === 'slack_confirmed'
        ? slackConfirmedBody(fresh.entry, message.payload.total ?? 0, { includeEmail: options.slackIncludeEmail, language: messageLanguage(message) })
        : message.kind === 'slack_joined'
          ? slackJoinedBody(fresh.entry, message.payload, { includeEmail: options.slackIncludeEmail })
          : slackRewardBody(fresh.entry, message.payload, { includeEmail: options.slackIncludeEmail })
    await run.bounded(options.slack(body))
    return { outcome: 'sent' }
  }
  const language = await emailLanguage(message, options)
  const copy = await options.copy(language)
  if (message.kind === 'erasure_email') {
    // Slack is not told, and the person has left: no way off the list to offer (the erasure_email payload, supabase/schemas/07_outbox.sql).
    if (!(await lastCheck(message, store))) return WITHDRAWN
    const { name, email } = message.payload
    const rendered = await renderErasureEmail({ copy, name })
    await run.bounded(options.email({ ...rendered, to: { name, address: email }, senderName: copy.senderName, idempotencyKey: message.id }))
    return { outcome: 'sent' }
  }
  if (message.kind === 'update_email') return deliverUpdate(message, copy, language, options, run)
  if (message.kind === 'reward_email') return deliverReward(message, copy, language, options, run)
  const unsubscribe = mintToken()
  if (!(await store.attachUnsubscribe(message, unsubscribe.hash))) return { outcome: 'skipped', note: 'The lease was lost.' }
  const link = mintToken()
  const expires = await store.attachToken(message, link.hash)
  if (!expires) return { outcome: 'skipped', note: SKIPPED[message.kind] }
  const fresh = await lastCheck(message, store)
  if (!fresh) return WITHDRAWN
  const leavePage = leavePageUrl(options.siteUrl, unsubscribe.token, language)
  const sending = { senderName: copy.senderName, idempotencyKey: message.id, unsubscribeUrl: unsubscribeUrl(options.siteUrl, unsubscribe.token, language) }
  if (message.kind === 'invitation_email' || message.kind === 'reminder_email') {
    const url = invitationUrl(await options.appUrl(), link.token)
    const rendered = await renderInvitationEmail({
      copy,
      kind: message.kind,
      name: fresh.entry.name,
      url,
      expires: formatExpiry(expires, language),
      unsubscribeUrl: leavePage,
    })
    await run.bounded(options.email({ ...rendered, ...sending, to: { name: fresh.entry.name, address: fresh.entry.email } }))
    return { outcome: 'sent' }
  }
  const rendered = await renderLinkEmail({
    copy,
    kind: message.kind === 'confirmation_email' && message.payload.import ? 'import_confirmation' : message.kind,
    url: confirmationUrl(options.siteUrl, link.token, language),
    expires: formatExpiry(expires, language),
    unsubscribeUrl: leavePage,
    // The share kit's links in the confirmation e-mail (the mailbox's own referral code).
    share:
      message.kind === 'confirmation_email' && fresh.entry.referral_code
        ? { link: referralLink(options.siteUrl, fresh.entry.referral_code, language), origin: options.siteUrl }
        : null,
  })
  await run.bounded(options.email({ ...rendered, ...sending, to: { name: '', address: fresh.entry.email } }))
  return { outcome: 'sent' }
}

/**
 * A post to a person who asked for updates. The database attaches its unsubscribe token only while
 * they still want updates, and scopes it to updates.
 */
function deliverUpdate(
  message: Extract<ClaimedMessage, { kind: 'update_email' }>,
  copy: WaitlistEmailCopy,
  language: string,
  options: DispatchOptions,
  run: Run,
): Promise<Outcome> {
  const { title, excerpt, path } = message.payload
  const url = new URL(path, options.siteUrl)
  // The database takes only a path; this keeps the button on the site whatever the payload says.
  if (url.origin !== new URL(options.siteUrl).origin) throw new Error('The post’s path is not on this site.')
  return deliverGreeted(message, copy, language, options, run, {
    tokenPrefix: UPDATES_TOKEN_PREFIX,
    refused: 'The person no longer wants updates (or the lease was lost).',
    render: (entry, leavePage) => renderUpdateEmail({ copy, name: entry.name, post: { title, excerpt }, url: url.toString(), unsubscribeUrl: leavePage }),
  })
}

/**
 * A rung of the reward ladder, granted: its words are the ladder's as published now, in the person's
 * language. A rung the marketers have since removed is not announced.
 */
function deliverReward(
  message: Extract<ClaimedMessage, { kind: 'reward_email' }>,
  copy: WaitlistEmailCopy,
  language: string,
  options: DispatchOptions,
  run: Run,
): Promise<Outcome> {
  const rung = copy.rewards.find((candidate) => candidate.key === message.payload.rung)
  if (!rung) return Promise.resolve({ outcome: 'skipped', note: 'The rung is no longer in the published ladder.' })
  return deliverGreeted(message, copy, language, options, run, {
    refused: 'The lease was lost.',
    render: (entry, leavePage) => renderRewardEmail({ copy, name: entry.name, rung, unsubscribeUrl: leavePage }),
  })
}

/**
 * An e-mail to a confirmed person, greeted by name, with its one-click unsubscribe token (scoped by
 * `tokenPrefix`) attached and the person re-read right before it leaves.
 */
async function deliverGreeted(
  message: Extract<ClaimedMessage, { kind: 'update_email' | 'reward_email' }>,
  copy: WaitlistEmailCopy,
  language: string,
  options: DispatchOptions,
  run: Run,
  how: { tokenPrefix?: string; refused: string; render: (entry: ClaimedEntry, leavePage: string) => Promise<RenderedEmail> },
): Promise<Outcome> {
  const unsubscribe = mintToken(how.tokenPrefix)
  if (!(await options.store.attachUnsubscribe(message, unsubscribe.hash))) return { outcome: 'skipped', note: how.refused }
  const fresh = await lastCheck(message, options.store)
  if (!fresh) return WITHDRAWN
  const rendered = await how.render(fresh.entry, leavePageUrl(options.siteUrl, unsubscribe.token, language))
  await run.bounded(
    options.email({
      ...rendered,
      to: { name: fresh.entry.name, address: fresh.entry.email },
      senderName: copy.senderName,
      idempotencyKey: message.id,
      unsubscribeUrl: unsubscribeUrl(options.siteUrl, unsubscribe.token, language),
    }),
  )
  return { outcome: 'sent' }
}

/** Why a link e-mail no longer applies when its token could not be attached. */
const SKIPPED = {
  confirmation_email: 'The entry is no longer pending.',
  access_email: 'The entry is not confirmed.',
  invitation_email: 'The invitation was redeemed or has expired.',
  reminder_email: 'The invitation was redeemed or has expired.',
} as const

/** Whose messages must keep their order: a webhook about a person after the one before it. */
function personOf(message: ClaimedMessage): string {
  return message.entry?.id ?? (message.kind === 'webhook' ? String(message.payload.data.id ?? message.id) : message.id)
}

/** Runs each group's messages in order, `concurrency` groups at a time. */
async function inGroups(messages: ClaimedMessage[], concurrency: number, handle: (message: ClaimedMessage) => Promise<void>): Promise<void> {
  const groups = new Map<string, ClaimedMessage[]>()
  for (const message of messages) groups.set(personOf(message), [...(groups.get(personOf(message)) ?? []), message])
  const queue = [...groups.values()]
  const worker = async () => {
    for (let group = queue.shift(); group; group = queue.shift()) for (const message of group) await handle(message)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, queue.length)) }, worker))
}

export async function dispatchOutbox(options: DispatchOptions): Promise<DispatchReport> {
  const started = Date.now()
  const store = guarded(options.store)
  const report: DispatchReport = { claimed: 0, sent: 0, skipped: 0, failed: 0, released: 0, purged: 0, errors: [] }
  report.purged = await options.store.purgePending()
  const messages = await options.store.claim(options.maxMessages ?? 20)
  report.claimed = messages.length
  if (messages.length === 0) return report
  const leaseMs = Math.min(...messages.map((message) => message.lease_ms ?? DEFAULT_LEASE_MS))
  const run = startRun(started, Math.min(options.budgetMs ?? RUN_BUDGET_MS, leaseMs / 2), leaseMs - Math.min(LEASE_MARGIN_MS, leaseMs / 10))
  // The published languages are read once a run, not once an e-mail (a failed read is tried again).
  const { languages } = options
  let published: Promise<readonly string[]> | undefined
  const publishedOnce = () =>
    (published ??= languages!().catch((error: unknown) => {
      published = undefined
      throw error
    }))
  const withStore = { ...options, store, ...(languages ? { languages: publishedOnce } : {}) }
  let stopped: StoreError | null = null

  const handle = async (message: ClaimedMessage): Promise<void> => {
    if (stopped) return
    try {
      if (!run.open()) {
        if (await store.release(message)) report.released += 1
        return
      }
      let result: Outcome
      try {
        result = await deliver(message, withStore, run)
      } catch (error) {
        if (error instanceof StoreError) throw error
        const reason = redactedError(describeError(error), message)
        report.errors.push(`${message.kind} ${message.id}: ${reason}`)
        // Whether it left is unknown: the lease decides (in doubt; a webhook goes again).
        if (error instanceof RunDeadlineError) return
        report.failed += 1
        await store.fail(message, reason, error instanceof WebhookDeliveryError && error.final)
        return
      }
      // Outside the try: a failure to mark after a send must not be recorded as a failed send
      // (that would retry it); it stops the run, and the lease decides (see the module comment).
      // A mark the database refuses (the lease ran out) changes nothing, and the run never sends it again.
      await store.complete(message, result.outcome, result.note)
      report[result.outcome === 'sent' ? 'sent' : 'skipped'] += 1
    } catch (error) {
      if (!(error instanceof StoreError)) throw error
      stopped ??= error
    }
  }

  const isEmail = (message: ClaimedMessage) => message.kind.endsWith('_email')
  await Promise.all([
    (async () => {
      for (const message of messages.filter(isEmail)) await handle(message)
    })(),
    inGroups(
      messages.filter((message) => !isEmail(message)),
      options.concurrency ?? WEBHOOK_CONCURRENCY,
      handle,
    ),
  ])
  // The database failed mid-run: the caller hears it (the route answers 500), as before the run had lanes.
  if (stopped) throw (stopped as StoreError).original
  return report
}
