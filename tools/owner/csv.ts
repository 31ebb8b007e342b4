/**
 * CSV for the owner's waitlist export: RFC 4180 (CRLF records, fields quoted
 * when they hold a quote, comma, CR or LF, quotes doubled), plus a guard
 * against formula injection. Sign-ups are written by anonymous visitors, and
 * a name like `=HYPERLINK(...)` would otherwise run as a formula when the
 * file is opened in a spreadsheet.
 *
 * The guard does not assume how the file will be split: a spreadsheet set to
 * another locale splits on semicolons (or tabs, or pipes), and a line break
 * inside a quoted cell starts a new row in some importers. So a formula
 * trigger is neutralised (an apostrophe before it) at the start of the cell
 * and after every delimiter and line break inside it, spaces and quotes in
 * between included. Pure.
 *
 * Written here rather than by csv-stringify (6.9.0, tried for issue #67): it wrote the same bytes,
 * but the export's CSV side alone then ran at 41,000-51,000 rows/s of CPU against 117,000-154,000
 * with these functions (200,000 entries, each page decoded from JSON as the client gets it), below
 * the export's 50,000 rows/s target (tools/bench/db/targets.ts) before the database takes any time.
 */
import type { StoredAnswers } from '../../sanity/questions/rules'

export type { StoredAnswers }

export interface WaitlistEntry {
  id: string
  name: string
  email: string
  project: string
  created_at: string
  /** pending -> confirmed (through the e-mailed link) -> invited -> joined (redeemed in the app). */
  status: 'pending' | 'confirmed' | 'invited' | 'joined'
  /** Null while pending, and for entries from before double opt-in. */
  confirmed_at: string | null
  /** When the open invitation was made (invited or joined). */
  invited_at: string | null
  /** When they redeemed it in the product's app. */
  joined_at: string | null
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  referrer_host: string | null
  landing_path: string | null
  /** Why the owner may want a second look ('domain_burst', or 'disposable' for an imported address at a disposable-mail domain), with 'suppressed:<reason>' added for an address that gets no more e-mail (supabase/schemas/21_deliverability.sql), null otherwise. */
  flag: string | null
  /** How many people who came through this entry's referral link have confirmed. */
  referral_credits: number
  /** The id of the entry whose referral link this one came through; shown as that entry's e-mail. */
  referred_by: string | null
  /** Product updates by e-mail: asked for and not stopped (supabase/schemas/09_updates.sql). */
  updates: boolean
  /** When updates were last turned on, and off (the database's clock). */
  updates_opted_in_at: string | null
  updates_stopped_at: string | null
  /** The language of the page they signed up on, which every e-mail to them is written in (waitlist_outbox_language, supabase/schemas/07_outbox.sql). */
  language: string
  /** Their answers to the questions at sign-up, as stored (supabase/schemas/15_questions.sql). */
  answers?: StoredAnswers | null
  /** The rungs of the rewards ladder they earned, "rung:status;…" in the order earned (supabase/schemas/18_rewards.sql). */
  rewards?: string | null
  /** The research tasks they answered, by key (supabase/schemas/19_tasks.sql). */
  tasks?: AnsweredTasks | null
}

/** As private.waitlist_own_task_answers answers: per task key, its answers as stored and whether a founder revoked it. */
export type AnsweredTasks = Record<string, { title: string; answers: StoredAnswers; places: number; completed_at: string; revoked_at: string | null }>

/** The export's column for each research task (after the rewards column): `task_<key>`. */
export const taskColumns = (keys: readonly string[]) => keys.map((key) => `task_${key}`)

/**
 * A task's cell: each question's key and answer (its option keys, or the short answer), ` | `
 * between questions, "revoked: " before an answer a founder took back; empty when unanswered.
 */
export function taskCells(tasks: AnsweredTasks | null | undefined, keys: readonly string[]): CsvValue[] {
  return keys.map((key) => {
    const task = tasks?.[key]
    if (!task) return null
    const answers = Object.entries(task.answers).map(([question, answer]) => `${question}: ${answer.kind === 'text' ? answer.text : answer.options.join('; ')}`)
    return `${task.revoked_at ? 'revoked: ' : ''}${answers.join(' | ')}`
  })
}

/** The export's columns after WAITLIST_CSV_COLUMNS: one per question published now, then the answers to earlier ones. */
export const answerColumns = (keys: readonly string[]) => [...keys.map((key) => `answer_${key}`), 'earlier_answers']

/**
 * The last column while a rewards ladder is in use (published, or a rung of an earlier one earned):
 * each rung earned as "key:status", granted, held or refused, `;` between them. A list without a
 * ladder keeps the columns it always had.
 */
export const REWARDS_COLUMN = 'rewards'

/**
 * A question published now: its option keys (`; ` between several) or the short answer. An answer
 * to a question since removed is kept readable in the last column: its key, the question and the
 * options as the person saw them.
 */
export function answerCells(answers: StoredAnswers | null | undefined, keys: readonly string[]): CsvValue[] {
  const cells: CsvValue[] = keys.map((key) => {
    const answer = answers?.[key]
    return answer ? (answer.kind === 'text' ? answer.text : (answer.options ?? []).join('; ')) : null
  })
  const earlier = Object.entries(answers ?? {})
    .filter(([key]) => !keys.includes(key))
    .map(([key, answer]) => `${key} (${answer.question}): ${answer.kind === 'text' ? answer.text : answer.labels.join('; ')}`)
  cells.push(earlier.length > 0 ? earlier.join(' | ') : null)
  return cells
}

export const WAITLIST_CSV_COLUMNS = [
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
  'updates',
  'updates_opted_in_at',
  'updates_stopped_at',
  'language',
] as const

/**
 * Every place a cell may start when the file is split by any common delimiter (comma,
 * semicolon, tab, pipe) or line break, then spaces or quotes (a reader may take either as the
 * cell's own), followed by one of OWASP's formula triggers (= + - @, and tab or CR, which can
 * start one after a spreadsheet trims).
 */
const FORMULA_STARTS = /(?<=^|[\r\n,;\t|])([ "]*)(?=[=+\-@\t\r])/g

const DELIMITERS = /[\r\n,;\t|]/
export const FORMULA_AT_START = /^[ "]*[=+\-@\t\r]/

export function neutraliseFormulas(text: string): string {
  // Most cells (times, ids, plain names) hold no delimiter, and then only their start can begin a
  // formula: the same answer without the lookbehind at every character, which made the export of
  // a million entries slower than its database.
  if (!DELIMITERS.test(text) && !FORMULA_AT_START.test(text)) return text
  return text.replace(FORMULA_STARTS, "$1'")
}

/** What a cell needs either guard for: a delimiter, a quote or a line break anywhere, or a formula trigger at its start. */
const NEEDS_CARE = /[\r\n,;\t|"]|^[ "]*[=+\-@]/

export type CsvValue = string | number | boolean | null | undefined

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return ''
  const raw = typeof value === 'string' ? value : String(value)
  // Most cells need neither guard: one test instead of three (the export writes twenty a row).
  if (!NEEDS_CARE.test(raw)) return raw
  const text = neutraliseFormulas(raw)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/**
 * One record, its cells joined as they are made (no array of cells): `values`, or only those at
 * the indexes `columns` lists, in that order. The export writes a million of these from the
 * arrays a page of the list is made of (tools/owner/owner.ts, writeWaitlistCsv).
 */
export function csvRecord(values: readonly CsvValue[], columns?: readonly number[], tail: readonly CsvValue[] = []): string {
  const count = columns ? columns.length : values.length
  let record = ''
  for (let i = 0; i < count; i++) record += (i > 0 ? ',' : '') + csvCell(values[columns ? columns[i]! : i])
  for (const value of tail) record += `,${csvCell(value)}`
  return `${record}\r\n`
}

export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  let text = ''
  for (const row of rows) text += csvRecord(row)
  return text
}

export interface WaitlistCsvOptions {
  /** Prefix a UTF-8 byte order mark so Excel reads accented names correctly. */
  bom?: boolean
  /** The keys of the questions published now, in order: a column each (answerColumns). */
  questions?: readonly string[]
  /** The rewards column (REWARDS_COLUMN). */
  rewards?: boolean
  /** The keys of the research tasks, a column each after the rewards (taskColumns). */
  tasks?: readonly string[]
}

/** Each entry's referrer as the owner knows them: by e-mail, looked up in the same list. */
export function referrerEmails(entries: readonly WaitlistEntry[]): (entry: WaitlistEntry) => string | null {
  const emails = new Map(entries.map((entry) => [entry.id, entry.email]))
  return (entry) => (entry.referred_by ? (emails.get(entry.referred_by) ?? null) : null)
}

/** The header record, after a byte order mark when asked. */
export function waitlistCsvHeader(options: WaitlistCsvOptions = {}): string {
  const header = toCsv([
    [...WAITLIST_CSV_COLUMNS, ...answerColumns(options.questions ?? []), ...(options.rewards ? [REWARDS_COLUMN] : []), ...taskColumns(options.tasks ?? [])],
  ])
  return options.bom ? `\uFEFF${header}` : header
}

/**
 * The records of some entries, each referrer as `referrerOf` names them (by e-mail), then their
 * answers: the export writes them a page at a time (tools/owner/owner.ts, writeWaitlistCsv).
 */
export function waitlistCsvRecords<Entry extends WaitlistEntry>(
  entries: readonly Entry[],
  referrerOf: (entry: Entry) => string | null,
  questions: readonly string[] = [],
  rewards = false,
  tasks: readonly string[] = [],
): string {
  const cell = (entry: Entry, column: (typeof WAITLIST_CSV_COLUMNS)[number]) => (column === 'referred_by' ? referrerOf(entry) : entry[column])
  return toCsv(
    entries.map((entry) => [
      ...WAITLIST_CSV_COLUMNS.map((column) => cell(entry, column)),
      ...answerCells(entry.answers, questions),
      ...(rewards ? [entry.rewards] : []),
      ...taskCells(entry.tasks, tasks),
    ]),
  )
}

/** A whole list in one string (the export streams the same records page by page). */
export function waitlistToCsv(entries: readonly WaitlistEntry[], options: WaitlistCsvOptions = {}): string {
  return waitlistCsvHeader(options) + waitlistCsvRecords(entries, referrerEmails(entries), options.questions, options.rewards, options.tasks)
}
