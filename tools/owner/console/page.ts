/**
 * The console's one page, drawn on the server as plain HTML: tables with headers, an SVG chart,
 * and forms (Preview, Invite, Grant and Refuse a held credit) that work without any script.
 * Every value a visitor typed goes through `html`, which escapes it. The page holds only rendered
 * figures and the names and e-mails it shows: the service-role key never leaves the Node process.
 */
import { createHash } from 'node:crypto'
import { HOLD_REASONS, type HeldCredit } from '../credits'
import type { WaitlistEntry } from '../csv'
import { topReferrers, utcMinute, type InvitedPerson } from '../owner'
import { dailyChart } from './chart'
import { byCampaign, byReferringSite, formatShare, funnelSteps, perDay, topWithOthers, TOP_SOURCES, type SourceCount } from './figures'
import { dataTable as table, Html, html, type HtmlValue } from './html'
import { MAX_INVITE, type Preview } from './invite'
import { formatRate, type ExperimentResult } from '../../../components/experiments/results'

/** One person of public.waitlist_line_head(n). */
export type LinePerson = { place: number; id: string; name: string; email: string; project: string; referral_credits: number; confirmed_at: string | null }

export type ConsoleView = {
  /** The database read (its URL: never a key). */
  database: string
  readAt: Date
  token: string
  entries: readonly WaitlistEntry[]
  line: readonly LinePerson[]
  /** The undecided held referral credits. */
  held: readonly HeldCredit[]
  /** The decision just made on a held credit (Post/Redirect/Get). */
  decided?: { id: number; outcome: CreditOutcome }
  /** The number in the "how many" field. */
  n: number
  preview?: Preview
  /** The previewed people were no longer the next in line: nobody was invited. */
  changed?: boolean
  invited?: { people: readonly InvitedPerson[]; asPreviewed: boolean }
  experiments: ExperimentsView
}

/** The experiment results, and where the participants came from. */
export type ExperimentsView = {
  results: readonly ExperimentResult[]
  /** PostHog's participants: read, not configured, or configured but unreadable (why). */
  participants: { kind: 'read' } | { kind: 'not-configured' } | { kind: 'failed'; reason: string }
}

/** What a Grant or Refuse press did. */
export const CREDIT_OUTCOMES = ['granted', 'refused', 'already-granted', 'already-refused', 'unknown'] as const
export type CreditOutcome = (typeof CREDIT_OUTCOMES)[number]

export const LINE_HEAD = 20
const RECENT_INVITED = 20

const STYLE = `
:root { color-scheme: light; font: 16px/1.5 system-ui, sans-serif; color: #161616; background: #fff; }
body { margin: 0; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.3rem; margin: 2rem 0 .5rem; padding-top: 1rem; border-top: 1px solid #ccc; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
p { margin: .5rem 0; max-width: 48rem; }
.muted { color: #4d4d4d; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { text-align: left; vertical-align: top; padding: .25rem .9rem .25rem 0; border-bottom: 1px solid #ddd; }
.table { overflow-x: auto; max-width: 100%; }
.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: .5rem 0; }
svg { display: block; width: 100%; max-width: 48rem; height: auto; }
svg .grid { stroke: #e0e0e0; }
svg .axis { stroke: #4d4d4d; }
svg .tick { font-size: 12px; fill: #333; }
.signups { fill: #1f4e99; background: #1f4e99; }
.confirmations { fill: #2a8a4a; background: #2a8a4a; }
.key { display: inline-block; width: .8em; height: .8em; margin-left: .5em; vertical-align: -.05em; }
.notice { border-left: 4px solid #1f4e99; background: #eef3fb; padding: .5rem 1rem; margin: .75rem 0; }
form { margin: .75rem 0; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
input, button { font: inherit; }
input { width: 6em; padding: .2rem .4rem; }
button { padding: .3rem 1rem; }
td form { margin: 0; flex-wrap: nowrap; }
`

/** The only style the page has, allowed by its hash in the Content-Security-Policy. */
export const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`

const when = (timestamp: string | null) => (timestamp ? utcMinute(timestamp) : '')

function section(id: string, title: string, body: HtmlValue): Html {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body}</section>`
}

function funnel(entries: readonly WaitlistEntry[]): Html {
  const steps = funnelSteps(entries)
  return html`${table(
    'Funnel figures',
    ['Step', 'People', 'Share of the step before'],
    steps.map((step) => [step.label, step.count, step.of === null ? '' : `${formatShare(step.rate)} of ${step.of}`]),
    [1],
  )}<p class="muted">Each step counts everyone who got at least that far. Only entries still in the list count: people who erased themselves, and sign-ups not confirmed within their week, are gone from it.</p>`
}

function sources(entries: readonly WaitlistEntry[]): Html {
  // The top TOP_SOURCES, then the rest in one row: visitors make these up, so the page stays small.
  const rows = (groups: readonly SourceCount[], none: string, kind: string) => {
    const { top, others, unrecorded } = topWithOthers(groups)
    return [
      ...top.map((group) => [group.label, group.signedUp, group.confirmed]),
      ...(others ? [[`Others: ${others.groups} more ${kind}`, others.signedUp, others.confirmed]] : []),
      ...(unrecorded ? [[none, unrecorded.signedUp, unrecorded.confirmed]] : []),
    ]
  }
  const referrers = topReferrers(entries)
  return html`<p class="muted">The ${TOP_SOURCES} largest of each, then the rest in one row.</p>
<h3>Campaign tags</h3>
${table('Campaign tags', ['Campaign (source / medium / campaign)', 'Signed up', 'Confirmed'], rows(byCampaign(entries), 'No campaign tags', 'campaigns'), [1, 2])}
<h3>Referring sites</h3>
${table('Referring sites', ['Referring site', 'Signed up', 'Confirmed'], rows(byReferringSite(entries), 'None recorded (typed in, or no referrer sent)', 'sites'), [1, 2])}
<h3>Top referrers</h3>
${referrers.length ? table('Top referrers', ['Name', 'E-mail', 'Confirmed referrals'], referrers.map((entry) => [entry.name, entry.email, entry.referral_credits]), [2]) : html`<p>Nobody has brought a confirmed friend yet.</p>`}`
}

function line(view: ConsoleView): Html {
  const status = new Map(view.entries.map((entry) => [entry.id, entry.status]))
  const invited = view.entries
    .filter((entry) => entry.invited_at !== null)
    .sort((a, b) => b.invited_at!.localeCompare(a.invited_at!))
    .slice(0, RECENT_INVITED)
  return html`<p class="muted">The next ${LINE_HEAD} in the order invitations go: confirmed people, in order of confirmation, each confirmed referral moving someone up. Invited and joined people have left the line.</p>
${view.line.length ? table('Next in line', ['Place', 'Status', 'Name', 'E-mail', 'Referrals', 'Confirmed (UTC)'], view.line.map((person) => [person.place, status.get(person.id) ?? 'confirmed', person.name, person.email, person.referral_credits, when(person.confirmed_at)]), [0, 4]) : html`<p>Nobody is waiting in line.</p>`}
<h3>Invited and joined</h3>
${invited.length ? table('Invited and joined', ['Status', 'Name', 'E-mail', 'Invited (UTC)', 'Joined (UTC)'], invited.map((entry) => [entry.status, entry.name, entry.email, when(entry.invited_at), when(entry.joined_at)])) : html`<p>Nobody has been invited yet.</p>`}`
}

const people = (label: string, list: readonly InvitedPerson[]) => table(label, ['Place', 'Name', 'E-mail'], list.map((person) => [person.place, person.name, person.email]), [0])
const plural = (count: number) => (count === 1 ? '1 person' : `${count} people`)

function invite(view: ConsoleView): Html {
  const { preview, invited, changed, token } = view
  const outcome = invited
    ? html`<div class="notice" role="status"><p>Invited ${plural(invited.people.length)}. Their invitations are in the outbox; the dispatcher e-mails each once.${invited.asPreviewed ? '' : ' The line changed as you pressed: these are the people the database invited, not the ones previewed.'}</p>${invited.people.length ? people('Invited', invited.people) : ''}</div>`
    : changed
      ? html`<div class="notice" role="status"><p>Nobody was invited: the next people in line are no longer the ones you previewed (someone confirmed, earned a referral or was invited meanwhile). Here is who would be invited now.</p></div>`
      : ''
  const confirm = preview
    ? preview.people.length
      ? html`<h3>Would be invited</h3>${people('Would be invited', preview.people)}
<form method="post" action="/invite">
<input type="hidden" name="token" value="${token}"><input type="hidden" name="n" value="${preview.n}"><input type="hidden" name="expect" value="${preview.fingerprint}">
<button type="submit">Invite ${plural(preview.people.length)}</button>
</form>`
      : html`<p>Nobody is waiting in line: there is nobody to invite.</p>`
    : ''
  return html`${outcome}
<form method="get" action="/#invite">
<input type="hidden" name="token" value="${token}">
<label for="invite-n">How many</label><input id="invite-n" name="n" type="number" min="1" max="${MAX_INVITE}" step="1" required value="${view.n}">
<button type="submit">Preview</button>
</form>
${confirm}
<p class="muted">Invite sends nothing by itself: it marks them invited and writes their invitation e-mails to the outbox, which the dispatcher sends once each (as <code>npm run waitlist:invite</code> does).</p>`
}

const OUTCOME_TEXT: Record<CreditOutcome, (id: number) => string> = {
  granted: (id) => `Granted credit ${id}: it now counts, and moves the referrer up like any other.`,
  refused: (id) => `Refused credit ${id}: it stays uncounted.`,
  'already-granted': (id) => `Credit ${id} was already granted: nothing changed.`,
  'already-refused': (id) => `Credit ${id} was already refused: nothing changed.`,
  unknown: (id) => `There is no held credit ${id}.`,
}

function heldCredits(view: ConsoleView): Html {
  const decide = (id: number) =>
    html`<form method="post" action="/credit"><input type="hidden" name="token" value="${view.token}"><input type="hidden" name="id" value="${id}"><button type="submit" name="decision" value="grant" aria-label="Grant credit ${id}">Grant</button><button type="submit" name="decision" value="refuse" aria-label="Refuse credit ${id}">Refuse</button></form>`
  const notice = view.decided ? html`<div class="notice" role="status"><p>${OUTCOME_TEXT[view.decided.outcome](view.decided.id)}</p></div>` : ''
  const rows = view.held.map((credit) => [credit.id, when(credit.held_at), HOLD_REASONS[credit.reason] ?? credit.reason, credit.referrer_name, credit.referrer_email, credit.referred_email ?? '(erased)', decide(credit.id)])
  return html`${notice}<p class="muted">A referral that looks like one person farming their own link (a disposable e-mail domain, a domain on your blocklist, the referrer's own network, many within the hour) earns a held credit: it moves nobody, and nobody is told, until you grant it (then it counts like any other) or refuse it. Colleagues on one office network are held too: grant theirs.</p>
${view.held.length ? table('Held referral credits', ['Credit', 'Held (UTC)', 'Why', 'Referrer', 'Referrer e-mail', 'Referred e-mail', 'Decide'], rows, [0]) : html`<p>No referral credit is held.</p>`}`
}

/** One table per experiment: participants and the sign-up rate only when PostHog answered. */
export function experimentsSection({ results, participants }: ExperimentsView): Html {
  const withParticipants = participants.kind === 'read'
  const note =
    participants.kind === 'read'
      ? html`<p class="muted">Participants are the people PostHog saw exposed to each variant (its <code>$feature_flag_called</code> events).</p>`
      : participants.kind === 'failed'
        ? html`<div class="notice" role="status"><p>PostHog could not be read (${participants.reason}): sign-ups alone are shown.</p></div>`
        : html`<p class="muted">PostHog's query API is not configured (POSTHOG_PERSONAL_API_KEY and POSTHOG_PROJECT_ID): sign-ups alone are shown, without participants.</p>`
  const headers = [
    'Variant',
    ...(withParticipants ? ['Participants', 'Signed up', 'Sign-up rate (95 % interval)'] : ['Signed up']),
    'Confirmed',
    'Confirmation rate (95 % interval)',
  ]
  const tables = results.map(({ experiment, variants }) => {
    const rows = variants.map((v) => [v.variant, ...(withParticipants ? [v.participants ?? 0, v.signups, formatRate(v.signup)] : [v.signups]), v.confirmations, formatRate(v.confirmation)])
    return html`<h3>${experiment}</h3>${table(`Experiment ${experiment}`, headers, rows, withParticipants ? [1, 2, 4] : [1, 2])}`
  })
  return html`${note}<p class="muted">Each sign-up records the variants its visitor was assigned, for experiments running at that moment. The interval is Wilson's score interval: the range the true rate lies in with 95 % confidence. While two variants' intervals overlap, the difference may be chance.</p>
${tables.length ? tables : html`<p>No sign-up has recorded an experiment yet.</p>`}`
}

export function renderConsolePage(view: ConsoleView): string {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Waitlist console</title>
<style>${new Html(STYLE)}</style>
</head>
<body>
<main>
<h1>Waitlist console</h1>
<p class="muted">The waitlist at ${view.database}, read ${utcMinute(view.readAt.toISOString())} UTC. Reload for fresh figures. This page opens only from the address the console printed when it started.</p>
${section('funnel', 'Funnel', funnel(view.entries))}
${section('per-day', 'Sign-ups and confirmations per day', dailyChart(perDay(view.entries, view.readAt)))}
${section('sources', 'Where they came from', sources(view.entries))}
${section('line', 'Head of the line', line(view))}
${section('invite', 'Invite the next people in line', invite(view))}
${section('credits', 'Held referral credits', heldCredits(view))}
${section('experiments', 'Experiment results', experimentsSection(view.experiments))}
</main>
</body>
</html>
`
  return page.text
}
