/**
 * What the site owner's commands (tools/owner/waitlist-list.ts, waitlist-export.ts)
 * share: which project to read, reading every entry with the service-role
 * key, and a terminal-safe table. Server-side only: it handles the
 * service-role key, which must never reach a browser.
 */
import { open } from 'node:fs/promises'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type { Database } from '../../supabase/types.generated'
import { LOCAL_SERVICE_ROLE_KEY, LOCAL_SUPABASE_URL } from '../supabase-local/keys'
import { referrerEmails, WAITLIST_CSV_COLUMNS, type WaitlistEntry } from './csv'
import { describeWaitlistSource } from '../../components/waitlist/source'
import { formatRate, type ExperimentResult, type VariantCounts } from '../../components/experiments/results'

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

const PAGE_SIZE = 1000 // Supabase's default max_rows: a larger page would be cut silently.

/** Every entry, oldest first, paging past the API's row cap. */
export async function fetchAllWaitlistEntries(client: OwnerClient): Promise<WaitlistEntry[]> {
  const entries: WaitlistEntry[] = []
  for (let from = 0; ; from += PAGE_SIZE) {
    const { data, error, status } = await client
      .from('waitlist')
      .select(['id', ...WAITLIST_CSV_COLUMNS].join(','))
      .order('created_at', { ascending: true })
      .order('id', { ascending: true })
      .range(from, from + PAGE_SIZE - 1)
    if (error) {
      const code = error.code ? ` [${error.code}]` : ''
      throw new Error(`Could not read the waitlist (HTTP ${status}${code}): ${error.message}`)
    }
    const page = (data ?? []) as unknown as WaitlistEntry[]
    entries.push(...page)
    if (page.length < PAGE_SIZE) return entries
  }
}

/** Sign-ups and confirmations per experiment and variant (public.waitlist_experiment_results). */
export async function fetchExperimentCounts(client: OwnerClient): Promise<VariantCounts[]> {
  const { data, error, status } = await client.rpc('waitlist_experiment_results')
  if (error) throw new Error(`Could not read the experiment results (HTTP ${status}${error.code ? ` [${error.code}]` : ''}): ${error.message}`)
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

/** Resolves the project from `env` and reads the whole list with the service-role key. */
export async function loadWaitlistForOwner(env: Record<string, string | undefined>): Promise<{ config: OwnerConfig; client: OwnerClient; entries: WaitlistEntry[] }> {
  const { config, client } = ownerClient(env)
  try {
    return { config, client, entries: await fetchAllWaitlistEntries(client) }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // supabase-js reports a refused connection as an error with HTTP status 0.
    if (config.local && message.includes('HTTP 0')) {
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

const printable = (value: string) => terminalSafe(value)

export function utcMinute(timestamp: string): string {
  const date = new Date(timestamp)
  return Number.isNaN(date.getTime()) ? timestamp : date.toISOString().replace('T', ' ').slice(0, 16)
}

function width(value: string): number {
  return [...value].length
}

export function formatWaitlistTable(entries: readonly WaitlistEntry[]): string {
  const header = ['#', 'Signed up (UTC)', 'Status', 'Confirmed (UTC)', 'Invited (UTC)', 'Joined (UTC)', 'Name', 'Email', 'Project', 'Source', 'Referrals', 'Referred by', 'Flag']
  const referrerOf = referrerEmails(entries)
  const rows = entries.map((entry, index) => [
    String(index + 1),
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
    printable(referrerOf(entry) ?? ''),
    printable(entry.flag ?? ''),
  ])
  const confirmed = confirmedCount(entries)
  return `${alignedTable(header, rows)}\n${entries.length} ${entries.length === 1 ? 'entry' : 'entries'} (${confirmed} confirmed, ${entries.length - confirmed} pending)\n`
}

/** Everyone who confirmed, the invited and joined among them. */
const confirmedCount = (entries: readonly WaitlistEntry[]) => entries.filter((entry) => entry.status !== 'pending').length

/**
 * The steps of the funnel, each counting everyone who got at least that far (an invited person
 * confirmed first), among the entries still in the list: erased people are gone from it.
 */
export function waitlistFunnel(entries: readonly WaitlistEntry[]): { signedUp: number; confirmed: number; invited: number; joined: number } {
  return {
    signedUp: entries.length,
    confirmed: confirmedCount(entries),
    invited: entries.filter((entry) => entry.status === 'invited' || entry.status === 'joined').length,
    joined: entries.filter((entry) => entry.status === 'joined').length,
  }
}

/** The entries with the most confirmed referrals, ties to the earlier sign-up. */
export function topReferrers(entries: readonly WaitlistEntry[], top = 10): WaitlistEntry[] {
  return entries
    .filter((entry) => entry.referral_credits > 0)
    .sort((a, b) => b.referral_credits - a.referral_credits || a.created_at.localeCompare(b.created_at))
    .slice(0, top)
}

/** The UTC calendar day (YYYY-MM-DD) of a timestamp from the database. */
export const utcDay = (timestamp: string): string => utcMinute(timestamp).slice(0, 10)

/** Columns padded to their widest cell (code points), a rule under the header. */
export function alignedTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(width(title), ...rows.map((row) => width(row[column] ?? ''))))
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell + ' '.repeat((widths[column] ?? 0) - width(cell)))
      .join('  ')
      .trimEnd()
  const rule = widths.map((w) => '-'.repeat(w)).join('  ')
  return [line(header), rule, ...rows.map(line)].join('\n') + '\n'
}

/**
 * `npm run waitlist:stats`: the total, how many confirmed, the top referrers (by confirmed
 * referrals) and sign-ups per day (UTC), from the same list the other commands read.
 */
export function formatWaitlistStats(entries: readonly WaitlistEntry[], { top = 10 } = {}): string {
  const funnel = waitlistFunnel(entries)
  const referrers = topReferrers(entries, top)
  const days = new Map<string, { joined: number; confirmed: number }>()
  for (const entry of entries) {
    const day = utcDay(entry.created_at)
    const counts = days.get(day) ?? { joined: 0, confirmed: 0 }
    counts.joined++
    if (entry.status !== 'pending') counts.confirmed++
    days.set(day, counts)
  }
  const sections = [
    `Total: ${funnel.signedUp}\nConfirmed: ${funnel.confirmed}\nPending: ${funnel.signedUp - funnel.confirmed}\nInvited: ${funnel.invited}\nJoined: ${funnel.joined}`,
    referrers.length
      ? `Top referrers (confirmed referrals)\n${alignedTable(['#', 'Email', 'Name', 'Referrals'], referrers.map((entry, index) => [String(index + 1), printable(entry.email), printable(entry.name), String(entry.referral_credits)]))}`
      : 'Top referrers: none yet',
    `Sign-ups per day (UTC; still in the list)\n${alignedTable(['Day', 'Joined', 'Confirmed'], [...days].sort(([a], [b]) => a.localeCompare(b)).map(([day, counts]) => [day, String(counts.joined), String(counts.confirmed)]))}`,
  ]
  return `${sections.join('\n\n').trimEnd()}\n`
}

/** The experiments' sign-ups, confirmations and confirmation rates; '' when no sign-up recorded one. */
export function formatExperimentStats(results: readonly ExperimentResult[]): string {
  if (results.length === 0) return ''
  const rows = results.flatMap(({ experiment, variants }) => variants.map((v) => [experiment, v.variant, String(v.signups), String(v.confirmations), formatRate(v.confirmation)]))
  return `Experiments (sign-ups as recorded; participants: npm run waitlist:console)\n${alignedTable(['Experiment', 'Variant', 'Signed up', 'Confirmed', 'Confirmation rate (95 % interval)'], rows)}`
}

/** Personal data: created 0600; an existing file only with --force, and then made 0600 too. */
export async function writeOwnerOnly(file: string, text: string, force: boolean): Promise<void> {
  const handle = await open(file, force ? 'w' : 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') throw new Error(`${file} exists; pass --force to overwrite it.`)
    throw error
  })
  try {
    // The mode of open() applies only to a new file: an overwritten one keeps its own otherwise.
    await handle.chmod(0o600)
    await handle.writeFile(text)
  } finally {
    await handle.close()
  }
}

/** One person an invitation run picked: their place in line when it ran. */
export type InvitedPerson = { place: number; name: string; email: string }
export type InvitationRun = { people: InvitedPerson[]; refused?: string }

/**
 * `npm run waitlist:invite`: the next N of the line (public.waitlist_invite_next), or one person by
 * address out of order (public.waitlist_invite_email); with `dryRun` nothing changes.
 */
export async function inviteFromLine(client: OwnerClient, which: { next: number } | { email: string }, dryRun: boolean): Promise<InvitationRun> {
  if ('next' in which) {
    const { data, error } = await client.rpc('waitlist_invite_next', { n: which.next, dry_run: dryRun })
    if (error) throw new Error(`Could not invite: ${error.message}`)
    return { people: data as InvitedPerson[] }
  }
  const { data, error } = await client.rpc('waitlist_invite_email', { address: which.email, dry_run: dryRun })
  if (error) throw new Error(`Could not invite: ${error.message}`)
  const answer = data as { invited: boolean; reason?: string } & Partial<InvitedPerson>
  if (answer.reason) return { people: [], refused: `${which.email}: ${answer.reason}` }
  return { people: [{ place: answer.place!, name: answer.name!, email: answer.email! }] }
}

export function formatInvitations(run: InvitationRun, dryRun: boolean): string {
  if (run.refused) return `Not invited: ${printable(run.refused)}\n`
  if (run.people.length === 0) return 'Nobody is waiting in line: no confirmed entry is left to invite.\n'
  const table = alignedTable(['Place', 'Name', 'Email'], run.people.map((person) => [String(person.place), printable(person.name), printable(person.email)]))
  const summary = dryRun
    ? `Would invite ${run.people.length} (dry run: nothing changed, nothing sent).`
    : `Invited ${run.people.length}. Their invitations are in the outbox; the dispatcher sends each once.`
  return `${table}${summary}\n`
}
