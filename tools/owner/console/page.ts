/**
 * The console's one page, drawn on the server as plain HTML: tables with headers, an SVG chart,
 * and forms (Preview, Invite, Grant and Refuse a held credit, Approve and Refuse a held perk) that
 * work without any script.
 * Every value a visitor typed goes through `html`, which escapes it. The page holds only rendered
 * figures and the names and e-mails it shows: the service-role key never leaves the Node process.
 */
import { createHash } from 'node:crypto'
import { HOLD_REASONS, type HeldCredit } from '../credits'
import type { GrantedPerk, HeldReward, RewardCount } from '../rewards'
import { utcMinute, type Funnel, type InvitedPerson, type Segment, type SourceTable, type WaitlistFigures } from '../owner'
import { choiceQuestions, describeSegment, type AnswersView } from '../segments'
import { dailyChart } from './chart'
import { formatShare, funnelSteps, perDay, share, TOP_SOURCES } from './figures'
import { dataTable as table, Html, html, plural, type HtmlValue } from './html'
import { researchSection, type ResearchConsoleView } from './research'
import { MAX_INVITE, type Preview } from './invite'
import { formatRate, type ExperimentResult } from '../../../components/variants/results'
import { CAMPAIGNS_NOT_CONFIGURED, campaignShownTo, NO_CAMPAIGN_VERSION, type CampaignsView } from '../campaigns'
import type { WebhookDeliveryRow } from '../webhooks'
import { mailWarnings, percent, type MailHealth } from '../mail'
import { VITAL_METRICS, VITALS_DAYS, type RouteVitals } from '../../../components/analytics/vitals-posthog'

/** One person of public.waitlist_line_head(n). */
export type LinePerson = { place: number; id: string; name: string; email: string; project: string; referral_credits: number; confirmed_at: string | null }

export type ConsoleView = ResearchConsoleView & {
  /** The database read (its URL: never a key). */
  database: string
  readAt: Date
  token: string
  funnel: Funnel
  /** The rest of what the figures' one scan counted (its funnel is the one above). */
  figures: Omit<WaitlistFigures, 'funnel'>
  line: readonly LinePerson[]
  /** The latest invitations, newest first (public.waitlist_recent_invitations). */
  recentInvitations: readonly RecentInvitation[]
  /** The e-mails waiting in the outbox (public.waitlist_outbox_backlog). */
  backlog: OutboxBacklog
  /** The last 7 days' e-mail rates and the automatic pause (tools/owner/mail.ts); absent when not read. */
  mail?: MailHealth
  /** Resume just pressed (Post/Redirect/Get): whether sending was paused. */
  resumed?: boolean
  /** The undecided held referral credits. */
  held: readonly HeldCredit[]
  /** The latest webhook deliveries, newest first. */
  deliveries: readonly WebhookDeliveryRow[]
  /** A resend just pressed (Post/Redirect/Get). */
  resent?: { id: string; outcome: ResendOutcome }
  /** The decision just made on a held credit (Post/Redirect/Get). */
  decided?: { id: number; outcome: CreditOutcome }
  /** The rewards ladder: how many reached each rung, the held perks, the last perks granted (none when absent). */
  rewards?: RewardsView
  /** The decision just made on a held perk (Post/Redirect/Get). */
  decidedPerk?: { entry: string; rung: string; outcome: CreditOutcome }
  /** The number in the "how many" field. */
  n: number
  /** The questions at sign-up and how the line answers them. */
  answers: AnswersView
  /** The answers "Invite next N" is limited to (the ticked boxes), or null for the whole line. */
  segment: Segment | null
  preview?: Preview
  /** The previewed people were no longer the next in line: nobody was invited. */
  changed?: boolean
  /** Whom a press invited: how many, and the first SHOWN_PEOPLE of them. */
  invited?: { count: number; people: readonly InvitedPerson[]; asPreviewed: boolean }
  experiments: ExperimentsView
  campaigns: CampaignsView
  /** Real visitors' Web Vitals from PostHog: p75 per route, or why there are none. */
  vitals: VitalsView
}

/** One of public.waitlist_recent_invitations. */
export type RewardsView = { counts: readonly RewardCount[]; held: readonly HeldReward[]; granted: readonly GrantedPerk[] }

export type RecentInvitation = { status: string; name: string; email: string; invited_at: string; joined_at: string | null }

/** public.waitlist_outbox_backlog: e-mails not yet sent, how many of them are due, since when the oldest due one waits. */
export type OutboxBacklog = { queued: number; due: number; oldest_due_at: string | null; waited_seconds: number | null }

/** The experiment results, and where the participants came from. */
export type ExperimentsView = {
  results: readonly ExperimentResult[]
  /** PostHog's participants: read, not configured, or configured but unreadable (why). */
  participants: { kind: 'read' } | { kind: 'not-configured' } | { kind: 'failed'; reason: string }
}

/** Real visitors' Web Vitals: read from PostHog, not configured, or configured but unreadable (why). */
export type VitalsView = { kind: 'read'; routes: readonly RouteVitals[] } | { kind: 'not-configured' } | { kind: 'failed'; reason: string }

/** What a Grant or Refuse press did. */
export const CREDIT_OUTCOMES = ['granted', 'refused', 'already-granted', 'already-refused', 'unknown'] as const
export type CreditOutcome = (typeof CREDIT_OUTCOMES)[number]

/** What a Resend press did. */
export const RESEND_OUTCOMES = ['resent', 'not-failed'] as const
export type ResendOutcome = (typeof RESEND_OUTCOMES)[number]

export const LINE_HEAD = 20
export const RECENT_INVITED = 20
/** How many people of a preview or an invitation the page lists (one press may take 10,000): the count says the rest. */
export const SHOWN_PEOPLE = 50

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
.warning { border-left: 4px solid #a3260f; background: #fdf0ed; padding: .5rem 1rem; margin: .75rem 0; }
form { margin: .75rem 0; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
input, button { font: inherit; }
input { width: 6em; padding: .2rem .4rem; }
input[type=checkbox] { width: auto; }
fieldset { border: 1px solid #ccc; margin: 0; padding: .25rem .75rem .5rem; }
fieldset label { margin-right: .9rem; white-space: nowrap; }
button { padding: .3rem 1rem; }
td form { margin: 0; flex-wrap: nowrap; }
`

/** The only style the page has, allowed by its hash in the Content-Security-Policy. */
export const STYLE_HASH = `sha256-${createHash('sha256').update(STYLE).digest('base64')}`

const when = (timestamp: string | null) => (timestamp ? utcMinute(timestamp) : '')

function section(id: string, title: string, body: HtmlValue): Html {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${body}</section>`
}

function funnel(counts: Funnel): Html {
  const steps = funnelSteps(counts)
  return html`${table(
    'Funnel figures',
    ['Step', 'People', 'Share of the step before'],
    steps.map((step) => [step.label, step.count, step.of === null ? '' : `${formatShare(step.rate)} of ${step.of}`]),
    [1],
  )}<p class="muted">Each step counts everyone who got at least that far. Only entries still in the list count: people who erased themselves, and sign-ups not confirmed within their week, are gone from it.</p>`
}

function sources({ campaigns, sites, referrers }: Pick<WaitlistFigures, 'campaigns' | 'sites' | 'referrers'>): Html {
  // The top TOP_SOURCES, then the rest in one row: visitors make these up, so the page stays small.
  const rows = ({ top, others, unrecorded }: SourceTable, none: string, kind: string) => [
    ...top.map((group) => [group.label, group.signedUp, group.confirmed]),
    ...(others ? [[`Others: ${others.groups} more ${kind}`, others.signedUp, others.confirmed]] : []),
    ...(unrecorded ? [[none, unrecorded.signedUp, unrecorded.confirmed]] : []),
  ]
  return html`<p class="muted">The ${TOP_SOURCES} largest of each, then the rest in one row.</p>
<h3>Campaign tags</h3>
${table('Campaign tags', ['Campaign (source / medium / campaign)', 'Signed up', 'Confirmed'], rows(campaigns, 'No campaign tags', 'campaigns'), [1, 2])}
<h3>Referring sites</h3>
${table('Referring sites', ['Referring site', 'Signed up', 'Confirmed'], rows(sites, 'None recorded (typed in, or no referrer sent)', 'sites'), [1, 2])}
<h3>Top referrers</h3>
${
  referrers.length
    ? table(
        'Top referrers',
        ['Name', 'E-mail', 'Confirmed referrals'],
        referrers.map((entry) => [entry.name, entry.email, entry.referral_credits]),
        [2],
      )
    : html`<p>Nobody has brought a confirmed friend yet.</p>`
}`
}

function line(view: ConsoleView): Html {
  const invited = view.recentInvitations
  // Everyone in the line is 'confirmed': an entry has a place only while its status is (05_line.sql, waitlist_line_key).
  return html`<p class="muted">The next ${LINE_HEAD} in the order invitations go: confirmed people, in order of confirmation, each confirmed referral moving someone up. Invited and joined people have left the line.</p>
${
  view.line.length
    ? table(
        'Next in line',
        ['Place', 'Status', 'Name', 'E-mail', 'Referrals', 'Confirmed (UTC)'],
        view.line.map((person) => [person.place, 'confirmed', person.name, person.email, person.referral_credits, when(person.confirmed_at)]),
        [0, 4],
      )
    : html`<p>Nobody is waiting in line.</p>`
}
<h3>Invited and joined</h3>
${
  invited.length
    ? table(
        'Invited and joined',
        ['Status', 'Name', 'E-mail', 'Invited (UTC)', 'Joined (UTC)'],
        invited.map((entry) => [entry.status, entry.name, entry.email, when(entry.invited_at), when(entry.joined_at)]),
      )
    : html`<p>Nobody has been invited yet.</p>`
}`
}

/** The first SHOWN_PEOPLE of `count` people, and a line for the rest. */
function people(label: string, list: readonly InvitedPerson[], count = list.length): Html {
  const shown = list.slice(0, SHOWN_PEOPLE)
  const rest = count - shown.length
  return html`${table(
    label,
    ['Place', 'Name', 'E-mail'],
    shown.map((person) => [person.place, person.name, person.email]),
    [0],
  )}${rest > 0 ? html`<p>The first ${shown.length} of ${plural(count)} are listed; ${plural(rest)} more after them, in the same order.</p>` : ''}`
}

/** Per question, how the line answers: each option's count and share, a short answer as how many gave one. */
export function answersSection({ counts, inLine }: AnswersView): Html {
  const about = html`<p class="muted">The questions at sign-up as published now (docs/editors.md, "Questions at sign-up"), and how the ${plural(inLine)} in line (confirmed, not yet invited) answered them. Someone who signed up before a question was published has no answer to it. Tick answers under “Invite the next people in line” to invite among those who gave them.</p>`
  if (counts.length === 0) return html`${about}<p>No question is published: the form asks name, project and e-mail only.</p>`
  const tables = counts.map((question) =>
    question.kind === 'text'
      ? html`<h3>${question.label} <span class="muted">(${question.key}, a short answer)</span></h3><p>${plural(question.answered)} in line answered it (${formatShare(share(question.answered, inLine))}). Short answers are in the export (<code>npm run waitlist:export</code>), not here.</p>`
      : html`<h3>${question.label} <span class="muted">(${question.key})</span></h3>${table(
          `Answers to ${question.key}`,
          ['Answer', 'Key', 'In line', 'Share of the line'],
          question.options.map((option) => [option.label, option.option, option.entries, formatShare(share(option.entries, inLine))]),
          [2, 3],
        )}`,
  )
  return html`${about}${tables}`
}

/** The Preview form's boxes: one per option of each question with options, ticked as the current segment says. */
function segmentBoxes(view: ConsoleView): Html | '' {
  const questions = choiceQuestions(view.answers.questions)
  if (questions.length === 0) return ''
  return html`${questions.map(
    (question) =>
      html`<fieldset><legend>Only those who answered “${question.labels.en ?? question.key}”</legend>${question.options.map((option) => {
        const value = `${question.key}=${option.key}`
        const id = `where-${question.key}-${option.key}`
        const checked = view.segment?.[question.key]?.includes(option.key) ? html` checked` : ''
        return html`<label for="${id}"><input id="${id}" type="checkbox" name="where" value="${value}"${checked}> ${option.labels.en ?? option.key}</label>`
      })}</fieldset>`,
  )}<p class="muted">Ticked answers of one question: any of them. Of two questions: both. None ticked: the whole line.</p>`
}

function invite(view: ConsoleView): Html {
  const { preview, invited, changed, token } = view
  const among = view.segment ? html` among those who answered ${describeSegment(view.segment, view.answers.questions)}` : ''
  const carried = Object.entries(preview?.segment ?? {}).flatMap(([key, options]) =>
    options.map((option) => html`<input type="hidden" name="where" value="${key}=${option}">`),
  )
  const outcome = invited
    ? html`<div class="notice" role="status"><p>Invited ${plural(invited.count)}. Their invitations are in the outbox; the dispatcher e-mails each once.${invited.asPreviewed ? '' : ' The line changed as you pressed: these are the people the database invited, not the ones previewed.'}</p>${invited.count ? people('Invited', invited.people, invited.count) : ''}</div>`
    : changed
      ? html`<div class="notice" role="status"><p>Nobody was invited: the next people in line${among} are no longer the ones you previewed (someone confirmed, earned a referral or was invited meanwhile). Here is who would be invited now.</p></div>`
      : ''
  const confirm = preview
    ? preview.people.length
      ? html`<h3>Would be invited${among}</h3>${people('Would be invited', preview.people)}
<form method="post" action="/invite">
<input type="hidden" name="token" value="${token}"><input type="hidden" name="n" value="${preview.n}"><input type="hidden" name="expect" value="${preview.fingerprint}">${carried}
<button type="submit">Invite ${plural(preview.people.length)}</button>
</form>`
      : html`<p>${preview.segment ? 'Nobody in line answered so: there is nobody to invite.' : 'Nobody is waiting in line: there is nobody to invite.'}</p>`
    : ''
  return html`${outcome}
<form method="get" action="/#invite">
<input type="hidden" name="token" value="${token}">
<label for="invite-n">How many</label><input id="invite-n" name="n" type="number" min="1" max="${MAX_INVITE}" step="1" required value="${view.n}">
${segmentBoxes(view)}
<button type="submit">Preview</button>
</form>
${confirm}
<p class="muted">Invite sends nothing by itself: it marks them invited and writes their invitation e-mails to the outbox, which the dispatcher sends once each (as <code>npm run waitlist:invite</code> does).</p>`
}

/** "45 s", "12 min", "3 h 5 min", "2 d 4 h": how long, to the unit that matters. */
export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours} h ${minutes % 60} min`
  return `${Math.floor(hours / 24)} d ${hours % 24} h`
}

/** Where the founders' guide says how to raise the hourly cap to what the e-mail provider allows. */
export const SENDING_PACE_GUIDE = 'docs/founders.md#sending-pace-the-hourly-e-mail-cap'

function outbox(backlog: OutboxBacklog): Html {
  const count = (n: number) => (n === 1 ? '1 e-mail' : `${n.toLocaleString('en')} e-mails`)
  const waiting =
    backlog.queued === 0
      ? html`<p>No e-mail is waiting: the dispatcher has sent everything due.</p>`
      : html`<p>${count(backlog.queued)} waiting to be sent, ${backlog.due.toLocaleString('en')} of them due now.${
          backlog.waited_seconds === null
            ? ''
            : html` The oldest due e-mail has waited <strong>${formatWait(backlog.waited_seconds)}</strong> (due since ${when(backlog.oldest_due_at)} UTC).`
        }</p>`
  return html`${waiting}
<p class="muted">Confirmation links, invitations and updates leave through the outbox, at most the hourly cap's worth an hour (500 by default), links people wait for first. If the oldest due e-mail waits more than a few minutes while the dispatcher runs, the cap is holding them back: raise it to what your e-mail provider allows, as the founders' guide says (<code>${SENDING_PACE_GUIDE}</code>, “Sending pace: the hourly e-mail cap”).</p>`
}

/** The 7-day rates against e-mails sent, a warning above the warning thresholds, the pause and its Resume. */
function mailSection(view: ConsoleView): Html {
  const health = view.mail!
  const notice =
    view.resumed === undefined
      ? ''
      : html`<div class="notice" role="status"><p>${view.resumed ? 'Sending resumed: the dispatcher sends what waited, in order.' : 'Sending was not paused: nothing changed.'}</p></div>`
  const paused = health.paused_at
    ? html`<div class="warning" role="alert"><p><strong>Sending is paused</strong> since ${when(health.paused_at)} UTC: ${health.paused_reason ?? ''} Every e-mail waits in the outbox. Find the cause (a bought or old list, a broken form, the sender's DNS: <code>npm run mail:check</code>), then resume.</p><form method="post" action="/mail-resume"><input type="hidden" name="token" value="${view.token}"><button type="submit">Resume sending</button></form></div>`
    : ''
  const warnings = mailWarnings(health).map((warning) => html`<p class="warning" role="alert">${warning}</p>`)
  const rows = [
    ['Bounces', health.bounced, percent(health.bounce_rate), percent(health.warn_bounce_rate), percent(health.pause_bounce_rate)],
    ['Spam complaints', health.complained, percent(health.complaint_rate), percent(health.warn_complaint_rate), percent(health.pause_complaint_rate)],
  ]
  return html`${notice}${paused}${warnings}
<p>${health.sent.toLocaleString('en')} e-mails sent in the last 7 days; ${health.suppressed.toLocaleString('en')} addresses suppressed (no more e-mail of any kind).</p>
${table('The last 7 days', ['Event', 'Count', 'Rate', 'Warning above', 'Pause above'], rows, [1])}
<p class="muted">Heard from the e-mail provider's webhooks (docs/founders.md, "Bounces and complaints"). Sending pauses on its own above a pause rate once at least ${health.pause_min_sent} e-mails were sent in the window, and stays paused until a founder resumes (here, or <code>npm run waitlist:mail -- resume</code>).</p>`
}

const OUTCOME_TEXT: Record<CreditOutcome, (id: number) => string> = {
  granted: (id) => `Granted credit ${id}: it now counts, and moves the referrer up like any other.`,
  refused: (id) => `Refused credit ${id}: it stays uncounted.`,
  'already-granted': (id) => `Credit ${id} was already granted: nothing changed.`,
  'already-refused': (id) => `Credit ${id} was already refused: nothing changed.`,
  unknown: (id) => `There is no held credit ${id}.`,
}

/**
 * A decision's two buttons on something held for the founders (a credit, a perk): one form to
 * `action`, with this run's token and what names the held thing.
 */
function decisionForm(action: string, token: string, names: Record<string, string | number>, [grant, refuse]: [string, string], what: string): Html {
  const hidden = Object.entries(names).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)
  return html`<form method="post" action="${action}"><input type="hidden" name="token" value="${token}">${hidden}<button type="submit" name="decision" value="grant" aria-label="${grant} ${what}">${grant}</button><button type="submit" name="decision" value="refuse" aria-label="${refuse} ${what}">${refuse}</button></form>`
}

const notice = (text: string) => html`<div class="notice" role="status"><p>${text}</p></div>`

function heldCredits(view: ConsoleView): Html {
  const decide = (id: number) => decisionForm('/credit', view.token, { id }, ['Grant', 'Refuse'], `credit ${id}`)
  const decided = view.decided ? notice(OUTCOME_TEXT[view.decided.outcome](view.decided.id)) : ''
  const rows = view.held.map((credit) => [
    credit.id,
    when(credit.held_at),
    HOLD_REASONS[credit.reason] ?? credit.reason,
    credit.referrer_name,
    credit.referrer_email,
    credit.referred_email ?? '(erased)',
    decide(credit.id),
  ])
  return html`${decided}<p class="muted">A referral that looks like one person farming their own link (a disposable e-mail domain, a domain on your blocklist, the referrer's own network, many within the hour) earns a held credit: it moves nobody, and nobody is told, until you grant it (then it counts like any other) or refuse it. Colleagues on one office network are held too: grant theirs.</p>
${view.held.length ? table('Credits awaiting your decision', ['Credit', 'Held (UTC)', 'Why', 'Referrer', 'Referrer e-mail', 'Referred e-mail', 'Decide'], rows, [0]) : html`<p>No referral credit is held.</p>`}`
}

const STATE_TEXT: Record<WebhookDeliveryRow['state'], string> = {
  sent: 'sent',
  retrying: 'retrying',
  waiting: 'waiting',
  sending: 'sending',
  failed: 'failed',
  skipped: 'not sent (no WAITLIST_WEBHOOK_URL)',
  in_doubt: 'in doubt',
}

function deliveries(view: ConsoleView): Html {
  const resend = (delivery: WebhookDeliveryRow) =>
    delivery.state === 'failed'
      ? html`<form method="post" action="/webhook"><input type="hidden" name="token" value="${view.token}"><input type="hidden" name="id" value="${delivery.id}"><button type="submit" aria-label="Resend delivery ${delivery.id}">Resend</button></form>`
      : ''
  const notice = view.resent
    ? html`<div class="notice" role="status"><p>${view.resent.outcome === 'resent' ? `Delivery ${view.resent.id} is due again: the dispatcher sends it with the same webhook-id.` : `Delivery ${view.resent.id} had not failed: nothing changed.`}</p></div>`
    : ''
  const rows = view.deliveries.map((delivery) => [
    delivery.type,
    delivery.entry_id ?? '',
    STATE_TEXT[delivery.state] ?? delivery.state,
    delivery.attempts,
    when(delivery.created_at),
    delivery.state === 'sent' ? when(delivery.sent_at) : when(delivery.next_attempt_at),
    delivery.last_error ?? '',
    resend(delivery),
  ])
  return html`${notice}<p class="muted">What your own tools were sent at WAITLIST_WEBHOOK_URL (docs/founders.md, "Webhooks"): failed deliveries first, then the latest. A failed delivery is retried for a day, then marked failed; a redirect or a 4xx answer fails it at once.</p>
${view.deliveries.length ? table('Latest deliveries', ['Event', 'Entry', 'State', 'Attempts', 'Event time (UTC)', 'Sent or next try (UTC)', 'Last error', 'Resend'], rows, [3]) : html`<p>No webhook delivery yet.</p>`}`
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
    const rows = variants.map((v) => [
      v.variant,
      ...(withParticipants ? [v.participants ?? 0, v.signups, formatRate(v.signup)] : [v.signups]),
      v.confirmations,
      formatRate(v.confirmation),
    ])
    return html`<h3>${experiment}</h3>${table(`Experiment ${experiment}`, headers, rows, withParticipants ? [1, 2, 4] : [1, 2])}`
  })
  return html`${note}<p class="muted">Each sign-up records the variants its visitor was assigned, for experiments running at that moment. The interval is Wilson's score interval: the range the true rate lies in with 95 % confidence. While two variants' intervals overlap, the difference may be chance.</p>
${tables.length ? tables : html`<p>No sign-up has recorded an experiment yet.</p>`}`
}

/** One table: each campaign version, then the sign-ups no version was shown to, to compare with. */
export function campaignsSection(view: CampaignsView): Html {
  const about = html`<p class="muted">A campaign version replaces a section of a page for visitors whose address carries its tags, on the first page of their visit only (docs/editors.md, "Campaigns"). A sign-up counts for a version when its visit began on one of the version's pages with its tags, as each sign-up records them; a visitor shown two versions of one page counts for both. The interval is Wilson's score interval, as for experiments: while two rows' intervals overlap, the difference may be chance.</p>`
  if (view.kind === 'not-configured') return html`${about}<p class="muted">${CAMPAIGNS_NOT_CONFIGURED}</p>`
  if (view.kind === 'failed') return html`${about}<div class="notice" role="status"><p>The campaign versions could not be counted (${view.reason}).</p></div>`
  const versions = view.results.filter((result) => result.campaign !== null)
  if (versions.length === 0) return html`${about}<p>No campaign version is published in ${view.from}.</p>`
  const rows = view.results.map((result) => [
    result.campaign ?? NO_CAMPAIGN_VERSION,
    campaignShownTo(view.audiences, result.campaign),
    result.signups,
    result.confirmations,
    formatRate(result.confirmation),
  ])
  return html`${about}<p class="muted">The versions as published now in ${view.from}.</p>
${table('Sign-ups per campaign version', ['Campaign version', 'Shown to', 'Signed up', 'Confirmed', 'Confirmation rate (95 % interval)'], rows, [2, 3])}`
}

const vitalFigure = (metric: (typeof VITAL_METRICS)[number], figure: { p75: number } | undefined) =>
  figure === undefined ? '–' : metric === 'CLS' ? figure.p75.toFixed(2) : `${Math.round(figure.p75).toLocaleString('en-US')} ms`

/** p75 per route and metric over the last days, with the page loads each route's figures rest on. */
export function vitalsSection(vitals: VitalsView): Html {
  const about = html`<p class="muted">How fast the site is for real visitors who accepted analytics, measured in their browsers: the 75th percentile of each page load's metric over the last ${VITALS_DAYS} days (the figure Google judges Core Web Vitals on: LCP within 2,500 ms, INP within 200 ms and CLS within 0.1 are good). Routes are templates: <code>/blog/[slug]</code> is every post, <code>/[...slug]</code> every page from the Studio and the 404. docs/founders.md, "Real visitors' speed", shows how to read more in PostHog.</p>`
  if (vitals.kind === 'not-configured')
    return html`${about}<p class="muted">PostHog's query API is not configured (POSTHOG_PERSONAL_API_KEY and POSTHOG_PROJECT_ID): no figures.</p>`
  if (vitals.kind === 'failed') return html`${about}<div class="notice" role="status"><p>PostHog could not be read (${vitals.reason}): no figures.</p></div>`
  if (vitals.routes.length === 0) return html`${about}<p>No page load has been measured in the last ${VITALS_DAYS} days.</p>`
  const rows = vitals.routes.map(({ route, metrics }) => [
    route,
    ...VITAL_METRICS.map((metric) => vitalFigure(metric, metrics[metric])),
    Math.max(...Object.values(metrics).map((figure) => figure.samples)),
  ])
  return html`${about}${table('Real visitors’ Web Vitals, p75 per route', ['Route', ...VITAL_METRICS.map((metric) => `${metric} (p75)`), 'Page loads'], rows, [1, 2, 3, 4, 5, 6])}`
}

const PERK_OUTCOME_TEXT: Record<CreditOutcome, (rung: string) => string> = {
  granted: (rung) => `Approved “${rung}”: its e-mail is in the outbox.`,
  refused: (rung) => `Refused “${rung}”: nothing is sent, and their page no longer shows it.`,
  'already-granted': (rung) => `“${rung}” was already granted: nothing changed.`,
  'already-refused': (rung) => `“${rung}” was already refused: nothing changed.`,
  unknown: (rung) => `Nobody by that id earned “${rung}”.`,
}

const rungKind = (count: RewardCount) =>
  count.kind === 'places'
    ? `${count.places?.toLocaleString('en')} places`
    : count.kind === 'perk'
      ? count.approval === 'held'
        ? 'perk, held for your approval'
        : 'perk, granted at once'
      : 'no longer on the ladder'

export function rewardsSection(view: ConsoleView): Html {
  const { counts, held, granted } = view.rewards ?? { counts: [], held: [], granted: [] }
  const decided = view.decidedPerk ? notice(PERK_OUTCOME_TEXT[view.decidedPerk.outcome](view.decidedPerk.rung)) : ''
  const ladder = counts.length
    ? table(
        'People who reached each rung',
        ['Rung', 'Confirmed referrals', 'Reward', 'Reached', 'Granted', 'Awaiting you', 'Refused'],
        counts.map((count) => [count.rung, count.threshold ?? '', rungKind(count), count.reached, count.granted, count.held, count.refused]),
        [1, 3, 4, 5, 6],
      )
    : html`<p>No rewards ladder is published.</p>`
  const decide = (perk: HeldReward) =>
    decisionForm('/perk', view.token, { entry: perk.entry_id, rung: perk.rung }, ['Approve', 'Refuse'], `${perk.rung} for ${perk.email}`)
  const waiting = held.length
    ? table(
        'Perks awaiting your approval',
        ['Earned (UTC)', 'Rung', 'Name', 'E-mail', 'Confirmed referrals', 'Decide'],
        held.map((perk) => [when(perk.earned_at), perk.rung, perk.name, perk.email, perk.referral_credits, decide(perk)]),
        [4],
      )
    : html`<p>No perk is waiting for your approval.</p>`
  const last = granted.length
    ? table(
        'Perks granted last',
        ['Granted (UTC)', 'Rung', 'Name', 'E-mail', 'How'],
        granted.map((perk) => [when(perk.granted_at), perk.rung, perk.name, perk.email, perk.approved ? 'approved by you' : 'at once']),
      )
    : html`<p>No perk has been granted yet.</p>`
  return html`${decided}${ladder}
<p class="muted">A rung is earned once, when a counted referral reaches it (a held credit counts only once you grant it). A perk held for your approval sends nothing to the person until you approve it: the place to check, before a perk that costs money goes out, that the referrals behind it are real people.</p>
<h3>Awaiting your approval</h3>
${waiting}
<h3>Granted last</h3>
${last}`
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
${section('funnel', 'Funnel', funnel(view.funnel))}
${section('per-day', 'Sign-ups and confirmations per day', dailyChart(perDay(view.figures, view.readAt)))}
${section('sources', 'Where they came from', sources(view.figures))}
${section('line', 'Head of the line', line(view))}
${section('answers', 'How the line answers', answersSection(view.answers))}
${section('invite', 'Invite the next people in line', invite(view))}
${section('outbox', 'E-mails waiting to be sent', outbox(view.backlog))}
${view.mail ? section('deliverability', 'Bounces and complaints', mailSection(view)) : ''}
${section('credits', 'Held referral credits', heldCredits(view))}
${section('rewards', 'Rewards for bringing friends', rewardsSection(view))}
${section('research', 'Research tasks and the leaderboard', researchSection(view))}
${section('webhooks', 'Webhook deliveries', deliveries(view))}
${section('experiments', 'Experiment results', experimentsSection(view.experiments))}
${section('campaigns', 'Campaign versions', campaignsSection(view.campaigns))}
${section('speed', 'Real visitors’ speed', vitalsSection(view.vitals))}
</main>
</body>
</html>
`
  return page.text
}
