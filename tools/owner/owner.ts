/**
 * What the site owner's commands (tools/owner/waitlist-list.ts, waitlist-export.ts)
 * share: which project to read, reading every entry with the service-role
 * key, and a terminal-safe table. Server-side only: it handles the
 * service-role key, which must never reach a browser.
 */
import { once } from 'node:events'
import { open } from 'node:fs/promises'
import type { Writable } from 'node:stream'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type { Database } from '../../supabase/types.generated'
import { LOCAL_SERVICE_ROLE_KEY, LOCAL_SUPABASE_URL } from '../supabase-local/keys'
import type { PublishedQuestion } from '../../sanity/questions/rules'
import {
  answerCells,
  csvRecord,
  taskCells,
  WAITLIST_CSV_COLUMNS,
  waitlistCsvHeader,
  type AnsweredTasks,
  type CsvValue,
  type StoredAnswers,
  type WaitlistEntry,
} from './csv'
import { rewardsInUse } from './rewards'
import { exportedTasks } from './tasks'
import { describeWaitlistSource } from '../../components/waitlist/source'
import { formatRate, type CampaignCounts, type ExperimentResult, type VariantCounts } from '../../components/variants/results'
import type { CampaignAudience } from '../../sanity/variants/live-campaigns'

/** The database with the service-role key: table, function and argument names checked by tsc. */
export type OwnerClient = SupabaseClient<Database>

export interface OwnerConfig {
  url: string
  serviceRoleKey: string
  /** True for a local double or local stack (127.0.0.1 / localhost). */
  local: boolean
}

function isLocalUrl(url: string): boolean {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)
  } catch {
    return false
  }
}

/**
 * NEXT_PUBLIC_SUPABASE_URL + SUPABASE_SERVICE_ROLE_KEY when set (a real
 * project), else the local double with the local demo service key.
 */
export function resolveOwnerConfig(env: Record<string, string | undefined>): OwnerConfig {
  const url = env.NEXT_PUBLIC_SUPABASE_URL?.trim() || LOCAL_SUPABASE_URL
  const local = isLocalUrl(url)
  const key = env.SUPABASE_SERVICE_ROLE_KEY?.trim()
  if (key) return { url, serviceRoleKey: key, local }
  // The demo key only opens local stacks; never guess a key for a hosted project.
  if (local) return { url, serviceRoleKey: LOCAL_SERVICE_ROLE_KEY, local }
  throw new Error(`SUPABASE_SERVICE_ROLE_KEY is not set; it is needed to read the waitlist at ${url}.`)
}

/** An entry as a page of the list gives it: the CSV's columns, its id, and its referrer's e-mail. */
export type ListedEntry = WaitlistEntry & { referrer_email: string | null }

/**
 * Entries per request of a page of the list (public.waitlist_export_page). The page is one jsonb
 * value, which the API's max_rows (1,000 rows of a set) does not cut; 5,000 entries are a few MB.
 */
export const LIST_PAGE_SIZE = 5000

function readError(what: string, error: { code?: string; message: string }, status: number): Error {
  const code = error.code ? ` [${error.code}]` : ''
  return new Error(`Could not read ${what} (HTTP ${status}${code}): ${error.message}`)
}

/**
 * The values of each entry of a page of public.waitlist_export_page, in its order (its twin in
 * supabase/schemas/13_founders.sql): arrays, not objects, are half the bytes to build and parse.
 */
const LISTED_FIELDS = [
  'id',
  'created_at',
  'status',
  'confirmed_at',
  'invited_at',
  'joined_at',
  'name',
  'email',
  'project',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'referrer_host',
  'landing_path',
  'flag',
  'referral_credits',
  'referred_by',
  'referrer_email',
  'updates',
  'updates_opted_in_at',
  'updates_stopped_at',
  'language',
  'answers',
  'rewards',
  'tasks',
] as const satisfies readonly (keyof ListedEntry)[]

/** An entry of a page as the database sends it: its values in LISTED_FIELDS order. */
type ListedValues = readonly CsvValue[]

const ID = LISTED_FIELDS.indexOf('id')
const CREATED_AT = LISTED_FIELDS.indexOf('created_at')

/** An entry of a page, named (the database sends its values in LISTED_FIELDS order). */
export function listedEntry(values: readonly unknown[]): ListedEntry {
  const entry: Record<string, unknown> = {}
  LISTED_FIELDS.forEach((field, index) => (entry[field] = values[index]))
  return entry as unknown as ListedEntry
}

/** Where a page starts or ends: an entry's keyset key. */
type ListKey = { created_at: string; id: string }

const keyOf = (values: ListedValues): ListKey => ({ created_at: values[CREATED_AT] as string, id: values[ID] as string })

/** The lower end as both functions take it: absent from the start. */
const afterArgs = (after: ListKey | undefined) => (after ? { after_created_at: after.created_at, after_id: after.id } : {})

/** Entries after `after` (from the start without it) and up to and including `upto` (to the end without it). */
async function listPage(client: OwnerClient, after: ListKey | undefined, pageSize: number, upto?: ListKey): Promise<ListedValues[]> {
  const { data, error, status } = await client.rpc('waitlist_export_page', {
    ...afterArgs(after),
    ...(upto ? { upto_created_at: upto.created_at, upto_id: upto.id } : {}),
    page_size: pageSize,
  })
  if (error) throw readError('the waitlist', error, status)
  return data as unknown as ListedValues[]
}

/**
 * Pages asked for at once. The database builds a page's json on one core (about 80 ms for 5,000
 * entries at a million here), which one request at a time left the export waiting on: two at once
 * took the export of a million from 24.7 s to 15.1-15.8 s on this machine's two cores (three: no
 * faster, 20 MB more memory).
 */
export const LIST_CONCURRENCY = 2

/** Page ends asked for by one call of public.waitlist_export_bounds: 200,000 keys read at most, about 100 ms. */
const ENDS_PER_CALL = 40

async function pageEnds(client: OwnerClient, after: ListKey | undefined, pageSize: number): Promise<ListKey[]> {
  const { data, error, status } = await client.rpc('waitlist_export_bounds', {
    ...afterArgs(after),
    page_size: pageSize,
    pages: ENDS_PER_CALL,
  })
  if (error) throw readError('the waitlist', error, status)
  return (data as unknown as [string, string][]).map(([created_at, id]) => ({ created_at, id }))
}

/** A stretch of the list between two keys, each holding a page when it was measured; the last one has no end. */
type ListRange = { after?: ListKey; upto?: ListKey }

/** The list cut into ranges, oldest first, the next call for page ends asked for while these are read. */
async function* listRanges(client: OwnerClient, pageSize: number): AsyncGenerator<ListRange> {
  let after: ListKey | undefined
  let next = pageEnds(client, undefined, pageSize)
  for (;;) {
    const ends = await next
    const more = ends.length === ENDS_PER_CALL
    if (more) {
      next = pageEnds(client, ends.at(-1), pageSize)
      // A caller that stops early never awaits it: its failure is nobody's to report.
      next.catch(() => {})
    }
    for (const upto of ends) {
      yield { after, upto }
      after = upto
    }
    if (!more) {
      // Whatever follows the last end, sign-ups made during the export included.
      yield { after }
      return
    }
  }
}

/**
 * The whole list, oldest first, a page at a time (never an offset, never all at once), each entry
 * as the array of values the database sent. The first pages of the next LIST_CONCURRENCY ranges are
 * asked for while the caller handles this one, so at most LIST_CONCURRENCY + 1 pages are in memory. A
 * range is read to its end: a page that stops short of it (more entries there than when its end was
 * measured) is followed by the next one, so every entry present throughout comes once, in order,
 * as the one-page-at-a-time reading gave it.
 */
async function* waitlistValuePages(client: OwnerClient, pageSize: number): AsyncGenerator<ListedValues[]> {
  const ranges = listRanges(client, pageSize)
  const ahead: { range: ListRange; first: Promise<ListedValues[]> }[] = []
  let measured = false
  const fill = async () => {
    while (!measured && ahead.length < LIST_CONCURRENCY) {
      const next = await ranges.next()
      if (next.done) measured = true
      else {
        const first = listPage(client, next.value.after, pageSize, next.value.upto)
        first.catch(() => {})
        ahead.push({ range: next.value, first })
      }
    }
  }
  try {
    await fill()
    for (let current = ahead.shift(); current; current = ahead.shift()) {
      let page = await current.first
      await fill()
      for (;;) {
        if (page.length > 0) yield page
        const last = page.at(-1)
        if (!last || page.length < pageSize || last[ID] === current.range.upto?.id) break
        page = await listPage(client, keyOf(last), pageSize, current.range.upto)
      }
    }
  } finally {
    await ranges.return(undefined)
  }
}

/** The whole list as waitlistValuePages reads it, each entry named. */
export async function* waitlistPages(client: OwnerClient, pageSize = LIST_PAGE_SIZE): AsyncGenerator<ListedEntry[]> {
  for await (const page of waitlistValuePages(client, pageSize)) yield page.map(listedEntry)
}

/** Signed up, confirmed, invited, joined: each step counts everyone who got at least that far. */
export type Funnel = { signedUp: number; confirmed: number; invited: number; joined: number }

/** The funnel among the entries still in the list (public.waitlist_funnel): erased people are gone from it. */
export async function fetchFunnel(client: OwnerClient): Promise<Funnel> {
  const { data, error, status } = await client.rpc('waitlist_funnel')
  if (error) throw readError('the waitlist', error, status)
  return data as unknown as Funnel
}

/** Entries grouped by a source label (null: nothing recorded). */
export type SourceCount = { label: string | null; signedUp: number; confirmed: number }

export type SourceTable = {
  /** The largest labelled groups, most sign-ups first, ties in code-point order of the label. */
  top: SourceCount[]
  /** Every other labelled group summed, and how many distinct there are; null when none is left. */
  others: (Omit<SourceCount, 'label'> & { groups: number }) | null
  /** Entries with nothing recorded; null when there are none. */
  unrecorded: SourceCount | null
}

export type Referrer = { name: string; email: string; referral_credits: number }

/** What public.waitlist_figures counts in one scan of the list. */
export type WaitlistFigures = {
  /** The funnel, as public.waitlist_funnel counts it: the same scan, not a second one beside it. */
  funnel: Funnel
  /** By campaign tags, worded as describeWaitlistSource words them ("campaign src / medium / name"). */
  campaigns: SourceTable
  /** By referring site ("from host"). */
  sites: SourceTable
  /** Every UTC day anyone still in the list signed up, oldest first: how many, and how many of them confirmed. */
  signupDays: { day: string; signedUp: number; confirmed: number }[]
  /** Every UTC day anyone still in the list confirmed (entries from before double opt-in have none). */
  confirmationDays: { day: string; confirmed: number }[]
  /** The entries with the most counted referral credits, ties to the earlier sign-up. */
  referrers: Referrer[]
}

const NO_SOURCES: SourceTable = { top: [], others: null, unrecorded: null }

/**
 * The figures of the console and waitlist:stats, counted by the database (public.waitlist_figures):
 * `topSources` of each source table, `topReferrers` referrers.
 */
export async function fetchFigures(client: OwnerClient, { topSources = 20, topReferrers = 10 } = {}): Promise<WaitlistFigures> {
  const { data, error, status } = await client.rpc('waitlist_figures', { top_sources: topSources, top_referrers: topReferrers })
  if (error) throw readError('the waitlist', error, status)
  const figures = data as unknown as WaitlistFigures
  // An empty list has no group of either kind.
  return { ...figures, campaigns: figures.campaigns ?? NO_SOURCES, sites: figures.sites ?? NO_SOURCES }
}

/** Sign-ups and confirmations per experiment and variant (public.waitlist_experiment_results). */
export async function fetchExperimentCounts(client: OwnerClient): Promise<VariantCounts[]> {
  const { data, error, status } = await client.rpc('waitlist_experiment_results')
  if (error) throw readError('the experiment results', error, status)
  return data
}

/** Sign-ups and confirmations per campaign version shown to `audiences`, and of everyone else (public.waitlist_campaign_results). */
export async function fetchCampaignCounts(client: OwnerClient, audiences: CampaignAudience[]): Promise<CampaignCounts[]> {
  const { data, error, status } = await client.rpc('waitlist_campaign_results', { audiences })
  if (error) throw readError('the campaign results', error, status)
  return data
}

/** The project from `env`, and a client with its service-role key (owner's machine only). */
export function ownerClient(env: Record<string, string | undefined>): { config: OwnerConfig; client: OwnerClient } {
  const config = resolveOwnerConfig(env)
  const client = createClient<Database>(config.url, config.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Retrying a refused local connection only delays the hint below by ~7 s; a hosted project keeps the retries.
    db: { retry: !config.local },
  })
  return { config, client }
}

/**
 * Runs an owner command's reads against the project from `env`; a refused local connection says
 * how to start the local double.
 */
export async function withOwnerClient<T>(
  env: Record<string, string | undefined>,
  work: (owner: { config: OwnerConfig; client: OwnerClient }) => Promise<T>,
): Promise<T> {
  const owner = ownerClient(env)
  try {
    return await work(owner)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // supabase-js reports a refused connection as an error with HTTP status 0.
    if (owner.config.local && message.includes('HTTP 0')) {
      throw new Error(`${message}\nIs the local double running? Start it with: npx tsx tools/supabase-local/main.ts`)
    }
    throw error
  }
}

// Control characters (escape, bell, CSI...) and the invisible format ones that reorder or hide
// text (bidi overrides and isolates, zero-width characters, line separators).
const UNPRINTABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/g

/**
 * Visitors choose these strings: escape what could move the cursor, recolour or retitle the
 * owner's terminal, or make one line read as another. Tab, LF and CR are kept when `keepLayout`
 * (a CSV's own structure), else escaped too.
 */
export function terminalSafe(value: string, { keepLayout = false } = {}): string {
  const escape = (char: string) => {
    const code = char.charCodeAt(0)
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`
  }
  const escaped = value.replace(UNPRINTABLE, escape)
  return keepLayout ? escaped : escaped.replace(/[\t\n\r]/g, escape)
}

export const printable = (value: string) => terminalSafe(value)

export function utcMinute(timestamp: string): string {
  const date = new Date(timestamp)
  return Number.isNaN(date.getTime()) ? timestamp : date.toISOString().replace('T', ' ').slice(0, 16)
}

function width(value: string): number {
  return [...value].length
}

const LIST_HEADER = [
  '#',
  'Signed up (UTC)',
  'Status',
  'Confirmed (UTC)',
  'Invited (UTC)',
  'Joined (UTC)',
  'Name',
  'Email',
  'Project',
  'Source',
  'Referrals',
  'Referred by',
  'Flag',
]

/** One line of waitlist:list: the entry's place in the list (1-based) and its fields, escaped. */
function listCells(entry: ListedEntry, number: number): string[] {
  return [
    String(number),
    printable(utcMinute(entry.created_at)),
    entry.status,
    entry.confirmed_at ? printable(utcMinute(entry.confirmed_at)) : entry.status === 'pending' ? '' : '(before opt-in)',
    entry.invited_at ? printable(utcMinute(entry.invited_at)) : '',
    entry.joined_at ? printable(utcMinute(entry.joined_at)) : '',
    printable(entry.name),
    printable(entry.email),
    printable(entry.project),
    printable(describeWaitlistSource(entry) ?? ''),
    String(entry.referral_credits),
    printable(entry.referrer_email ?? ''),
    printable(entry.flag ?? ''),
  ]
}

/** Where a command writes, a chunk at a time; `write` resolves once the chunk may be followed (backpressure). */
export type Sink = { write(chunk: string): Promise<void>; end(): Promise<void> }

/** A Node stream as a Sink: waits for 'drain' whenever the stream's buffer is full. */
export function streamSink(stream: Writable, { close = true } = {}): Sink {
  return {
    write: async (chunk) => {
      if (!stream.write(chunk)) await once(stream, 'drain')
    },
    end: () => (close ? new Promise<void>((resolve, reject) => stream.once('error', reject).end(resolve)) : Promise.resolve()),
  }
}

/**
 * `npm run waitlist:list`: the list as a table, oldest first, written a page at a time. Its
 * columns are padded to their widest cell, which only the whole list knows: a first pass reads the
 * pages for the widths alone, the second writes them; neither keeps more than a page. The last
 * line counts from the database's funnel. Returns how many entries were written.
 */
export async function writeWaitlistTable(client: OwnerClient, sink: Sink, pageSize = LIST_PAGE_SIZE): Promise<number> {
  const funnel = fetchFunnel(client)
  const widths = LIST_HEADER.map(width)
  let count = 0
  for await (const page of waitlistPages(client, pageSize)) {
    for (const entry of page) listCells(entry, ++count).forEach((cell, column) => (widths[column] = Math.max(widths[column]!, width(cell))))
  }
  await sink.write(`${alignedLine(LIST_HEADER, widths)}\n${rule(widths)}\n`)
  let written = 0
  for await (const page of waitlistPages(client, pageSize)) {
    await sink.write(page.map((entry) => `${alignedLine(listCells(entry, ++written), widths)}\n`).join(''))
  }
  const { signedUp, confirmed } = await funnel
  await sink.write(`${signedUp} ${signedUp === 1 ? 'entry' : 'entries'} (${confirmed} confirmed, ${signedUp - confirmed} pending)\n`)
  return written
}

/** The UTC calendar day (YYYY-MM-DD) of a timestamp from the database. */
export const utcDay = (timestamp: string): string => utcMinute(timestamp).slice(0, 10)

const alignedLine = (cells: readonly string[], widths: readonly number[]) =>
  cells
    .map((cell, column) => cell + ' '.repeat(Math.max(0, (widths[column] ?? 0) - width(cell))))
    .join('  ')
    .trimEnd()

const rule = (widths: readonly number[]) => widths.map((w) => '-'.repeat(w)).join('  ')

/** Columns padded to their widest cell (code points), a rule under the header. */
export function alignedTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(width(title), ...rows.map((row) => width(row[column] ?? ''))))
  return [alignedLine(header, widths), rule(widths), ...rows.map((row) => alignedLine(row, widths))].join('\n') + '\n'
}

/**
 * `npm run waitlist:stats`: the total, how many confirmed, the top referrers (by confirmed
 * referrals) and sign-ups per day (UTC), as the database counts them.
 */
export function formatWaitlistStats(funnel: Funnel, figures: Pick<WaitlistFigures, 'referrers' | 'signupDays'>): string {
  const { referrers, signupDays } = figures
  const sections = [
    `Total: ${funnel.signedUp}\nConfirmed: ${funnel.confirmed}\nPending: ${funnel.signedUp - funnel.confirmed}\nInvited: ${funnel.invited}\nJoined: ${funnel.joined}`,
    referrers.length
      ? `Top referrers (confirmed referrals)\n${alignedTable(
          ['#', 'Email', 'Name', 'Referrals'],
          referrers.map((entry, index) => [String(index + 1), printable(entry.email), printable(entry.name), String(entry.referral_credits)]),
        )}`
      : 'Top referrers: none yet',
    `Sign-ups per day (UTC; still in the list)\n${alignedTable(
      ['Day', 'Joined', 'Confirmed'],
      signupDays.map((day) => [day.day, String(day.signedUp), String(day.confirmed)]),
    )}`,
  ]
  return `${sections.join('\n\n').trimEnd()}\n`
}

/** The experiments' sign-ups, confirmations and confirmation rates; '' when no sign-up recorded one. */
export function formatExperimentStats(results: readonly ExperimentResult[]): string {
  if (results.length === 0) return ''
  const rows = results.flatMap(({ experiment, variants }) =>
    variants.map((v) => [experiment, v.variant, String(v.signups), String(v.confirmations), formatRate(v.confirmation)]),
  )
  return `Experiments (sign-ups as recorded; participants: npm run waitlist:console)\n${alignedTable(['Experiment', 'Variant', 'Signed up', 'Confirmed', 'Confirmation rate (95 % interval)'], rows)}`
}

/** Where each CSV column's value is in an entry of a page: the referrer by e-mail, as the CSV names them. */
const CSV_FROM_LISTED = WAITLIST_CSV_COLUMNS.map((column) => LISTED_FIELDS.indexOf(column === 'referred_by' ? 'referrer_email' : column))
const ANSWERS = LISTED_FIELDS.indexOf('answers')
const REWARDS = LISTED_FIELDS.indexOf('rewards')
const TASKS = LISTED_FIELDS.indexOf('tasks')

/** The questions at sign-up published now, in order, as the database keeps them (public.waitlist_questions). */
export async function publishedQuestions(client: OwnerClient): Promise<PublishedQuestion[]> {
  const { data, error, status } = await client.rpc('waitlist_questions')
  if (error) throw readError('the questions at sign-up', error, status)
  return data as unknown as PublishedQuestion[]
}

/** The languages a sign-up may be stored in (public.waitlist_languages, supabase/schemas/17_languages.sql). */
export async function publishedLanguages(client: OwnerClient): Promise<string[]> {
  const { data, error, status } = await client.rpc('waitlist_languages')
  if (error) throw readError('the languages the site publishes', error, status)
  return data ?? []
}

/**
 * `npm run waitlist:export`: the list as CSV (tools/owner/csv.ts), written a page at a time;
 * `escape` (stdout) makes each chunk terminal-safe. Returns how many entries were written. The
 * records are made straight from the arrays of values the database sent, with no object per entry
 * (a million of them cost the export more time in garbage collection than in writing CSV).
 */
export async function writeWaitlistCsv(client: OwnerClient, sink: Sink, { bom = false, escape = false, pageSize = LIST_PAGE_SIZE } = {}): Promise<number> {
  const out = (text: string) => sink.write(escape ? terminalSafe(text, { keepLayout: true }) : text)
  const [questions, rewards, tasks] = await Promise.all([
    publishedQuestions(client).then((published) => published.map((question) => question.key)),
    rewardsInUse(client),
    exportedTasks(client),
  ])
  await out(waitlistCsvHeader({ bom, questions, rewards, tasks }))
  let count = 0
  const tail = (values: ListedValues) => {
    const cells = answerCells(values[ANSWERS] as StoredAnswers | null, questions)
    if (rewards) cells.push(values[REWARDS])
    if (tasks.length > 0) cells.push(...taskCells(values[TASKS] as AnsweredTasks | null, tasks))
    return cells
  }
  for await (const page of waitlistValuePages(client, pageSize)) {
    count += page.length
    let records = ''
    for (const values of page) records += csvRecord(values, CSV_FROM_LISTED, tail(values))
    await out(records)
  }
  return count
}

/**
 * Personal data: a file created 0600; an existing file only with --force, and then made 0600 too.
 * The sink writes through Node's stream, with its backpressure.
 */
export async function ownerOnlyFile(file: string, force: boolean): Promise<Sink> {
  const handle = await open(file, force ? 'w' : 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') throw new Error(`${file} exists; pass --force to overwrite it.`)
    throw error
  })
  try {
    // The mode of open() applies only to a new file: an overwritten one keeps its own otherwise.
    await handle.chmod(0o600)
  } catch (error) {
    await handle.close()
    throw error
  }
  return streamSink(handle.createWriteStream({ encoding: 'utf8' }))
}

/** One person an invitation run picked: their place in line when it ran. */
export type InvitedPerson = { place: number; name: string; email: string }
export type InvitationRun = { people: InvitedPerson[]; refused?: string }

/** Who an invitation run takes: answers to the questions at sign-up, {"role": ["product-manager"]} (tools/owner/segments.ts). */
export type Segment = Record<string, string[]>

/**
 * `npm run waitlist:invite`: the next N of the line (public.waitlist_invite_next), of those in a
 * segment when one is given, or one person by address out of order (public.waitlist_invite_email);
 * with `dryRun` nothing changes.
 */
export async function inviteFromLine(
  client: OwnerClient,
  which: { next: number; segment?: Segment | null } | { email: string },
  dryRun: boolean,
): Promise<InvitationRun> {
  if ('next' in which) {
    const { data, error } = await client.rpc('waitlist_invite_next', { n: which.next, dry_run: dryRun, ...(which.segment ? { segment: which.segment } : {}) })
    if (error) throw new Error(`Could not invite: ${error.message}`)
    return { people: data as InvitedPerson[] }
  }
  const { data, error } = await client.rpc('waitlist_invite_email', { address: which.email, dry_run: dryRun })
  if (error) throw new Error(`Could not invite: ${error.message}`)
  const answer = data as { invited: boolean; reason?: string } & Partial<InvitedPerson>
  if (answer.reason) return { people: [], refused: `${which.email}: ${answer.reason}` }
  return { people: [{ place: answer.place!, name: answer.name!, email: answer.email! }] }
}

export function formatInvitations(run: InvitationRun, dryRun: boolean, segmented = false): string {
  if (run.refused) return `Not invited: ${printable(run.refused)}\n`
  if (run.people.length === 0)
    return segmented ? 'Nobody in line answered so: nobody to invite.\n' : 'Nobody is waiting in line: no confirmed entry is left to invite.\n'
  const table = alignedTable(
    ['Place', 'Name', 'Email'],
    run.people.map((person) => [String(person.place), printable(person.name), printable(person.email)]),
  )
  const summary = dryRun
    ? `Would invite ${run.people.length} (dry run: nothing changed, nothing sent).`
    : `Invited ${run.people.length}. Their invitations are in the outbox; the dispatcher sends each once.`
  return `${table}${summary}\n`
}
