/**
 * Bringing a list from another tool (issue #52), `npm run waitlist:import -- list.csv`
 * (tools/owner/waitlist-import.ts): every row read and checked here with the form's own rules
 * (components/waitlist/rules.ts, answers against the questions published now), each bad one
 * reported by its line with the reason; then the good rows written by the database in chunks,
 * all or none (public.waitlist_import_*, supabase/schemas/16_imports.sql, which also skips anyone
 * already on the list, in any spelling, and flags disposable-mail domains).
 */
import { createHash, randomUUID } from 'node:crypto'
import { CsvError, parse } from 'csv-parse/sync'
import { validateAnswers } from '../../components/waitlist/answers'
import { mailboxKey } from '../../components/waitlist/email'
import {
  cleanWaitlistText,
  codePointLength,
  isPlainWaitlistText,
  trimWaitlistText,
  validateWaitlistInput,
  type WaitlistFieldError,
} from '../../components/waitlist/rules'
import { DEFAULT_LANGUAGE, LANGUAGE_CODE_PATTERN } from '../../lib/i18n/languages'
import { QUESTION_LIMITS, type PublishedQuestion } from '../../sanity/questions/rules'
import { FORMULA_AT_START } from './csv'
import type { OwnerClient } from './owner'

export const IMPORT_LIMITS = {
  /** A record longer than this (characters) is reported, never read: a sign-up is far shorter. */
  recordChars: 16_384,
  /** utm_source's own limit (supabase/schemas/02_waitlist.sql). */
  source: 100,
  /** private.waitlist_imports.consent. */
  consent: 500,
  /** Rows and JSON characters a chunk at most: the API's 1 MB body; CallPacer keeps each within the 8 s statement timeout. */
  chunkRows: 5000,
  chunkChars: 600_000,
  /** The first chunk's rows, before any call was timed. */
  firstChunkRows: 1000,
  /** What each call aims at: a third of the API's 8 s, room for a busier server. */
  callMs: 2_500,
  /** Below this a call cut by the timeout is not made smaller again: the import fails. */
  minimumCallRows: 50,
  /** Chunks written at once, each on a connection of its own. */
  chunksAtOnce: 2,
  /** Held messages released a call at the commit (public.waitlist_import_commit). */
  releasePerCall: 20_000,
  /**
   * A consented import's people confirmed a call after the commit, at most and at first: a
   * confirmation costs about 2 ms on PostgreSQL through its triggers (the line, the webhook,
   * Slack); CallPacer sizes the calls between.
   */
  confirmEntries: 5_000,
  firstConfirmEntries: 500,
  /** Calls after the commit that may fail before the rest is left to the dispatcher's runs. */
  followRetries: 3,
  /** How long a run waits for another run's import that is still writing (the database calls one quiet after a minute). */
  waitForOpenMs: 75_000,
} as const

// ---------------------------------------------------------------------------------------------
// Reading the file

/** One record of the file: its values, or why it cannot be read; `line` is where it starts. */
export type CsvRecord = { line: number; fields: string[] } | { line: number; problem: string }

/** What csv-parse finds wrong with a record, in the words the import reports it with. */
const PROBLEMS: Partial<Record<string, string>> = {
  INVALID_OPENING_QUOTE: 'a quote inside a value that does not start with one',
  CSV_INVALID_CLOSING_QUOTE: 'text after a closing quote (a quote inside a value is written twice: "")',
  CSV_QUOTE_NOT_CLOSED: 'a quoted value is never closed',
}

const QUOTE = 0x22
const COMMA = 0x2c
const CR = 0x0d
const LF = 0x0a

/**
 * RFC 4180 records (comma-separated, "" inside quotes, CRLF, LF or CR line ends), read by
 * csv-parse, each with the line it starts on. A record over `maxChars`, or one whose quotes are
 * broken, is one problem at its line, and reading goes on at the next record.
 *
 * csv-parse cannot go on by itself: it stops at an oversized record, and after a closing quote
 * followed by text it reads the rest of the file as that quoted value, even with
 * skip_records_with_error. So a record it cannot read ends one parse; the value it stopped in is
 * skipped here (valueEnd), and the next parse starts after it, its first record the rest of the
 * broken one. Lines are counted here from where each record starts, in bytes: csv-parse's own
 * count takes a CRLF inside a quoted value for two lines.
 */
export function* csvRecords(text: string, maxChars: number = IMPORT_LIMITS.recordChars): Generator<CsvRecord> {
  const bytes = Buffer.from(text)
  const lineAt = lineCounter(bytes)
  const tooLong = (start: number, end: number) => end - start > maxChars && textLength(bytes, start, end) > maxChars
  const longer = `longer than ${maxChars.toLocaleString('en')} characters`
  /** A record csv-parse stopped in: where it starts and its first problem; reading went on inside it. */
  let broken: { start: number; problem: string } | null = null
  const brokenUpTo = (end: number, { start, problem }: { start: number; problem: string }): CsvRecord => ({
    line: lineAt(start),
    problem: tooLong(start, end) ? longer : problem,
  })
  let at = 0
  while (at < bytes.length) {
    const read: { start: number; end: number; fields: string[] }[] = []
    let start = at
    let failure: CsvError | null = null
    try {
      parse(bytes.subarray(at), {
        relax_column_count: true,
        record_delimiter: ['\r\n', '\n', '\r'],
        // In bytes, which are at most three to a character: a record over this is over maxChars
        // characters too, and csv-parse keeps no more of it; tooLong measures the others.
        max_record_size: 3 * maxChars,
        on_record: (fields: string[], { bytes: end }) => {
          read.push({ start, end: at + end, fields })
          start = at + end
          return null
        },
      })
    } catch (error) {
      if (!(error instanceof CsvError)) throw error
      failure = error
    }
    for (const record of read) {
      if (broken) {
        yield brokenUpTo(record.end, broken)
        broken = null
      } else if (tooLong(record.start, record.end)) yield { line: lineAt(record.start), problem: longer }
      else if (record.fields.some((field) => field !== '')) yield { line: lineAt(record.start), fields: record.fields }
    }
    if (!failure) break
    broken ??= { start, problem: PROBLEMS[failure.code] ?? failure.message }
    // The value it stopped in starts after the last comma it read, or where the record does.
    const { bytes: lastRead, column } = failure as CsvError & { bytes: number; column: number }
    at = valueEnd(bytes, at + lastRead + (column === 0 ? 0 : 1))
  }
  if (broken) yield brokenUpTo(bytes.length, broken)
}

/**
 * Where reading goes on after a value that cannot be read: a quoted value ends at its closing
 * quote (at the end of the file if it has none), then anything up to the next comma or line break
 * is skipped, quotes included.
 */
function valueEnd(bytes: Buffer, start: number): number {
  let at = start
  if (bytes[at] === QUOTE) {
    for (at++; ; at += 2) {
      at = bytes.indexOf(QUOTE, at)
      if (at < 0) return bytes.length
      if (bytes[at + 1] !== QUOTE) break
    }
    at++
  }
  while (at < bytes.length && bytes[at] !== COMMA && bytes[at] !== CR && bytes[at] !== LF) at++
  return at
}

/** The line of each offset asked for, asked in order: the line breaks (CRLF, LF or CR) before it, plus one. */
function lineCounter(bytes: Buffer): (offset: number) => number {
  let line = 1
  let counted = 0
  return (offset) => {
    for (; counted < offset; counted++) {
      const byte = bytes[counted]
      if (byte === LF || (byte === CR && bytes[counted + 1] !== LF)) line++
    }
    return line
  }
}

/** How long some UTF-8 bytes are as text (UTF-16 code units, which the limit counts), without decoding them. */
function textLength(bytes: Buffer, start: number, end: number): number {
  let length = 0
  for (let at = start; at < end; at++) {
    const byte = bytes[at]!
    if ((byte & 0xc0) !== 0x80) length += byte >= 0xf0 ? 2 : 1
  }
  return length
}

// ---------------------------------------------------------------------------------------------
// Checking the rows

type Field = 'name' | 'email' | 'project' | 'signed_up_at' | 'source' | 'language'

/** Header names, lower-cased, as other tools and our own export (tools/owner/csv.ts) write them. */
const COLUMN_NAMES: Readonly<Record<string, Field>> = {
  name: 'name',
  'full name': 'name',
  email: 'email',
  'e-mail': 'email',
  'email address': 'email',
  project: 'project',
  company: 'project',
  signed_up_at: 'signed_up_at',
  'signed up': 'signed_up_at',
  created_at: 'signed_up_at',
  source: 'source',
  utm_source: 'source',
  language: 'language',
}

/** A row ready for public.waitlist_import_chunk: the form's values, normalised. */
export interface ImportRow {
  line: number
  name: string
  email: string
  project: string
  signed_up_at: string | null
  source: string | null
  language: string
  answers: Record<string, string | string[]>
  /** 1 for the earliest sign-up time of the file, and so on; null without a time. */
  rank: number | null
}

export interface BadRow {
  line: number
  reason: string
}

export interface ImportPlan {
  rows: ImportRow[]
  bad: BadRow[]
  /** Header cells that name neither a field nor a question published now: not read. */
  ignored: string[]
}

const FIELD_WORDS = { name: 'the name', email: 'the e-mail address', company: 'the project' } as const
const ERROR_WORDS: Record<WaitlistFieldError, string> = {
  required: 'is empty',
  too_long: 'is too long',
  invalid_email: 'is not an address mail can reach',
  invalid_characters: 'holds control, line-break or text-direction characters',
}

/** A value a spreadsheet would run: = + - @ (or a tab or CR) at its start. Refused, never stored. */
const formulaProblem = (what: string, value: string) =>
  FORMULA_AT_START.test(value) ? `${what} starts with ${JSON.stringify(value.trimStart()[0] ?? '')}, which a spreadsheet runs as a formula` : null

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i
const EARLIEST = Date.UTC(2000, 0, 1)

/** An ISO 8601 date or time (a time without a zone is UTC), or why not. */
export function readSignUpTime(value: string, now: Date): { time: string | null } | { problem: string } {
  if (value === '') return { time: null }
  const match = ISO_TIME.exec(value)
  if (!match) return { problem: 'the sign-up time is not a date the import reads (write 2026-03-14 or 2026-03-14T09:30:00Z)' }
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '0', zone = 'Z'] = match
  const base = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), Number(fraction.slice(0, 3).padEnd(3, '0')))
  const check = new Date(base)
  if (check.getUTCMonth() !== Number(month) - 1 || check.getUTCDate() !== Number(day) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) {
    return { problem: 'the sign-up time is not a real date' }
  }
  const offset = zone.toUpperCase() === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.replace(':', '').slice(3, 5) || 0))
  const time = base - offset * 60_000
  if (time > now.getTime() + 60_000) return { problem: 'the sign-up time is in the future' }
  if (time < EARLIEST) return { problem: 'the sign-up time is before 2000' }
  return { time: new Date(time).toISOString() }
}

const fold = (text: string) => trimWaitlistText(text).normalize('NFKC').toLowerCase()

/** A question's cell: option keys or their words in any language (several: separated by ; or |). */
function readAnswer(question: PublishedQuestion, cell: string): { answer: string | string[] | null } | { problem: string } {
  // Blank (invisible characters alone) is unanswered, as the form and the database have it.
  const value = cleanWaitlistText(cell)
  if (value === '') return { answer: null }
  const what = `the answer to "${question.key}"`
  if (question.kind === 'text') {
    // The form's own rule for a short answer; left empty is fine here (the old tool never asked).
    const { errors } = validateAnswers([{ key: question.key, kind: 'text', required: false, label: '', options: [] }], { [question.key]: [value] })
    const error = errors[question.key]
    // A sign-up's short answer has no fewest words (only a research task's does).
    if (error && error !== 'too_few_words')
      return { problem: `${what} ${error === 'too_long' ? `is over ${QUESTION_LIMITS.answer} characters` : ERROR_WORDS[error]}` }
    const formula = formulaProblem(what, value)
    return formula ? { problem: formula } : { answer: value }
  }
  const parts = question.kind === 'many' ? value.split(/[;|]/).map(fold).filter(Boolean) : [fold(value)]
  const chosen = new Set<string>()
  for (const part of parts) {
    const option = question.options.find((candidate) => candidate.key === part || Object.values(candidate.labels).some((label) => fold(label) === part))
    if (!option) {
      const keys = question.options.map((candidate) => candidate.key).join(', ')
      return { problem: `${what} is not one of its options (${keys}): ${JSON.stringify(part.slice(0, 60))}` }
    }
    chosen.add(option.key)
  }
  if (question.kind === 'one') return { answer: [...chosen][0]! }
  return { answer: question.options.map((option) => option.key).filter((key) => chosen.has(key)) }
}

/**
 * The file's text, or why it is not UTF-8. A file saved as UTF-16 (a spreadsheet's "Unicode text")
 * is named as such: read as UTF-8 its header would only look like one without name and email.
 * A byte that is not UTF-8 elsewhere is reported by its row (rowProblem).
 */
export function importText(bytes: Uint8Array): { text: string } | { problem: string } {
  const utf16Bom = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  // Without its mark, UTF-16 still gives itself away: a zero byte beside every ASCII letter (a
  // stray zero in a UTF-8 file is one row's problem, not the file's).
  const sample = bytes.subarray(0, 4096)
  if (utf16Bom || sample.filter((byte) => byte === 0).length * 4 > sample.length)
    return { problem: 'it is not UTF-8 (it looks like UTF-16): save it as CSV UTF-8' }
  return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') }
}

/**
 * Every record checked: the good rows (times ranked, earliest first) and each bad one with its
 * line and reason. A mailbox named twice (any spelling: components/waitlist/email.ts, mailboxKey)
 * keeps its first line. Null with a problem when the file cannot be read at all.
 */
export function planImport(
  text: string,
  questions: readonly PublishedQuestion[],
  now = new Date(),
  languages: readonly string[] | null = null,
): ImportPlan | { problem: string } {
  const records = csvRecords(text.replace(/^\uFEFF/, ''))
  const first = records.next()
  if (first.done) return { problem: 'the file is empty' }
  if ('problem' in first.value) return { problem: `its header (line ${first.value.line}) cannot be read: ${first.value.problem}` }
  const header = first.value.fields.map((cell) => trimWaitlistText(cell).toLowerCase())
  const columns = new Map<Field, number>()
  const answerColumns = new Map<PublishedQuestion, number>()
  const ignored: string[] = []
  for (const [index, cell] of header.entries()) {
    const field = COLUMN_NAMES[cell]
    const question = questions.find((candidate) => cell === candidate.key || cell === `answer_${candidate.key}`)
    if (field && !columns.has(field)) columns.set(field, index)
    else if (question && !answerColumns.has(question)) answerColumns.set(question, index)
    else if (cell !== '') ignored.push(cell)
  }
  if (!columns.has('name') || !columns.has('email')) return { problem: 'its header names no "name" and "email" columns (the first line must name the columns)' }

  const rows: ImportRow[] = []
  const bad: BadRow[] = []
  const seen = new Map<string, number>()
  for (const record of records) {
    if ('problem' in record) {
      bad.push({ line: record.line, reason: record.problem })
      continue
    }
    const row = rowProblem(record.fields, header.length) ?? readRow(record.line, record.fields, columns, answerColumns, now, languages)
    if ('problem' in row) {
      bad.push({ line: record.line, reason: row.problem })
      continue
    }
    const key = mailboxKey(row.row.email)
    const earlier = seen.get(key)
    if (earlier !== undefined) {
      bad.push({ line: record.line, reason: `the same mailbox as line ${earlier}` })
      continue
    }
    seen.set(key, record.line)
    rows.push(row.row)
  }
  const timed = rows.filter((row) => row.signed_up_at !== null).sort((a, b) => a.signed_up_at!.localeCompare(b.signed_up_at!) || a.line - b.line)
  for (const [index, row] of timed.entries()) row.rank = index + 1
  return { rows, bad, ignored }
}

function rowProblem(fields: readonly string[], columns: number): { problem: string } | null {
  if (fields.some((field) => field.includes('\uFFFD'))) return { problem: 'holds bytes that are not UTF-8 (save the file as UTF-8)' }
  const given = fields.length - [...fields].reverse().findIndex((field) => field !== '')
  if (given > columns) return { problem: `has ${given} values, the header names ${columns}` }
  return null
}

function readRow(
  line: number,
  fields: readonly string[],
  columns: ReadonlyMap<Field, number>,
  answerColumns: ReadonlyMap<PublishedQuestion, number>,
  now: Date,
  languages: readonly string[] | null,
): { row: ImportRow } | { problem: string } {
  const cell = (field: Field) => fields[columns.get(field) ?? -1] ?? ''
  const checked = validateWaitlistInput({ name: cell('name'), email: cell('email'), company: cell('project') })
  if (!checked.ok) {
    const [field, error] = Object.entries(checked.errors)[0] as [keyof typeof FIELD_WORDS, WaitlistFieldError]
    return { problem: `${FIELD_WORDS[field]} ${ERROR_WORDS[error]}` }
  }
  const { name, email, project } = checked.row
  const formula = formulaProblem('the name', name) ?? formulaProblem('the e-mail address', email) ?? formulaProblem('the project', project)
  if (formula) return { problem: formula }

  const source = cleanWaitlistText(cell('source'))
  if (!isPlainWaitlistText(source)) return { problem: `the source ${ERROR_WORDS.invalid_characters}` }
  if (codePointLength(source) > IMPORT_LIMITS.source) return { problem: `the source is over ${IMPORT_LIMITS.source} characters` }
  const sourceFormula = formulaProblem('the source', source)
  if (sourceFormula) return { problem: sourceFormula }

  const language = trimWaitlistText(cell('language')).toLowerCase() || DEFAULT_LANGUAGE
  if (!LANGUAGE_CODE_PATTERN.test(language)) return { problem: 'the language is not a code like en or de' }
  // The database refuses any other (supabase/schemas/17_languages.sql): its e-mails' links would lead nowhere.
  if (languages && !languages.includes(language)) return { problem: `the language ${language} is not one the site publishes (${languages.join(', ')})` }

  const time = readSignUpTime(trimWaitlistText(cell('signed_up_at')), now)
  if ('problem' in time) return time

  const answers: ImportRow['answers'] = {}
  for (const [question, index] of answerColumns) {
    const read = readAnswer(question, fields[index] ?? '')
    if ('problem' in read) return read
    if (read.answer !== null && !(Array.isArray(read.answer) && read.answer.length === 0)) answers[question.key] = read.answer
  }
  return { row: { line, name, email, project, signed_up_at: time.time, source: source || null, language, answers, rank: null } }
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * The chunks of rows a call each: at most chunkRows (or what `maxRows()` says as each chunk is
 * made: the import's CallPacer), and at most chunkChars of JSON.
 */
export function* chunksOf<T>(
  rows: readonly T[],
  size: (row: T) => number,
  { maxRows = IMPORT_LIMITS.chunkRows, maxChars = IMPORT_LIMITS.chunkChars }: { maxRows?: number | (() => number); maxChars?: number } = {},
): Generator<T[]> {
  const limit = typeof maxRows === 'number' ? () => maxRows : maxRows
  let chunk: T[] = []
  let chars = 0
  for (const row of rows) {
    const rowChars = size(row)
    if (chunk.length > 0 && (chunk.length >= limit() || chars + rowChars > maxChars)) {
      yield chunk
      chunk = []
      chars = 0
    }
    chunk.push(row)
    chars += rowChars
  }
  if (chunk.length > 0) yield chunk
}

const rowChars = (row: ImportRow) => JSON.stringify(row).length + 1

function dbError(what: string, error: { code?: string; message: string }, status: number): Error {
  return new Error(`Could not ${what} (HTTP ${status}${error.code ? ` [${error.code}]` : ''}): ${error.message}`)
}

export interface ListVerdicts {
  /** Lines whose mailbox is on the list already (skipped). */
  listed: number[]
  /** Lines at a disposable-mail domain (imported, flagged). */
  disposable: number[]
}

/** The dry run's question to the database: who is already on the list, who is at a disposable domain. */
export async function checkAgainstList(client: OwnerClient, rows: readonly ImportRow[]): Promise<ListVerdicts> {
  const verdicts: ListVerdicts = { listed: [], disposable: [] }
  for (const chunk of chunksOf(rows, rowChars)) {
    const { data, error, status } = await client.rpc('waitlist_import_check', { rows: chunk.map(({ line, email }) => ({ line, email })) })
    if (error) throw dbError('check the rows against the list', error, status)
    const answer = data as unknown as ListVerdicts
    verdicts.listed.push(...answer.listed)
    verdicts.disposable.push(...answer.disposable)
  }
  return verdicts
}

export const fileSha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

export interface ImportResult extends ListVerdicts {
  id: string
  written: number
  /** Open imports that a run which died left behind (of any file), taken out first. */
  abandoned: number
  /** False when the work after the commit (confirmations, releases) stopped: the dispatcher finishes it. */
  released?: boolean
}

export interface ImportProgress {
  /** Entries written so far. */
  onProgress?: (written: number) => void
  /** Another run's import is open and still writing: this one waits for it (id, when it last wrote). */
  onWaiting?: (open: { id: string; active_at: string }) => void
}

export interface ImportOptions extends ImportProgress {
  consent: string | null
  sha256: string
  chunkRows?: number
  /** How long to wait for another run's import that is still writing, and how often to look (ms). */
  waitMs?: number
  pollMs?: number
}

/** 55006 (object in use): the database's word that another run's import is open and writing. */
const IN_USE = '55006'

/**
 * Before a new import: every open import is a run that died (quiet: taken out here, whatever its
 * file), one being taken out (finished here), or one still writing (waited for, up to waitMs). The
 * database lets one import be open at a time (public.waitlist_import_begin), so a fixed file run
 * after a crash never finds the crashed run's people in its way. Answers how many were taken out.
 */
async function clearOpenImports(
  client: OwnerClient,
  { waitMs, pollMs, onWaiting }: Required<Pick<ImportOptions, 'waitMs' | 'pollMs'>> & ImportProgress,
): Promise<number> {
  const until = Date.now() + waitMs
  let abandoned = 0
  for (;;) {
    const { data: open, error, status } = await client.rpc('waitlist_imports_open')
    if (error) throw dbError('read the open imports', error, status)
    if (!open || open.length === 0) return abandoned
    let writing: (typeof open)[number] | null = null
    for (const left of open) {
      if ((left.quiet || left.aborting) && (await abortImport(client, left.id, { onlyQuiet: true }))) abandoned++
      else writing ??= left
    }
    if (!writing) continue
    if (Date.now() >= until)
      throw new Error(
        `another import (${writing.id}) is still writing, its last chunk at ${writing.active_at}: let it end, or run this again once it has been quiet for a minute`,
      )
    onWaiting?.({ id: writing.id, active_at: writing.active_at })
    await new Promise((resolve) => setTimeout(resolve, pollMs))
  }
}

/**
 * Writes the rows as one import: open imports of runs that died taken out first (a live one waited
 * for), then begin, the chunks, and the commit with what follows it (a consented import's people
 * confirmed, the messages released), two calls at a time; on any failure before the commit, the
 * import is taken out again and the error thrown: nothing half imported.
 */
export async function importRows(
  client: OwnerClient,
  rows: readonly ImportRow[],
  { consent, sha256, onProgress, onWaiting, chunkRows = IMPORT_LIMITS.chunkRows, waitMs = IMPORT_LIMITS.waitForOpenMs, pollMs = 2_000 }: ImportOptions,
): Promise<ImportResult> {
  const abandoned = await clearOpenImports(client, { waitMs, pollMs, onWaiting })

  const id = randomUUID()
  const timed = rows.filter((row) => row.rank !== null).length
  const begun = await client.rpc('waitlist_import_begin', { import_id: id, file_sha256: sha256, consent: consent ?? '', timed_rows: timed })
  if (begun.error) {
    if (begun.error.code === IN_USE) throw new Error('another import began at the same moment: run this again once it has ended')
    throw dbError('open the import', begun.error, begun.status)
  }
  const result: ImportResult = { id, written: 0, listed: [], disposable: [], abandoned }
  const pacer = new CallPacer(Math.min(IMPORT_LIMITS.firstChunkRows, chunkRows), chunkRows)
  const retry: ImportRow[][] = []
  const chunks = chunksOf(rows, rowChars, { maxRows: () => pacer.size })
  // The next rows to send: a chunk cut by the timeout (in halves) first, then as many rows as the
  // pacer says, within the API's body size.
  const take = (): ImportRow[] | null => retry.pop() ?? chunks.next().value ?? null
  let failed: unknown = null
  // Two chunks on the way at once: each is a statement of its own in the database, and the import's
  // time is mostly theirs (the insert triggers), so a second connection nearly halves it.
  const worker = async () => {
    for (let chunk = take(); chunk && failed === null; chunk = take()) {
      const started = performance.now()
      const { data, error, status } = await client.rpc('waitlist_import_chunk', { import_id: id, rows: chunk as unknown as never })
      if (error?.code === STATEMENT_TIMEOUT && pacer.cut(chunk.length)) {
        const half = Math.ceil(chunk.length / 2)
        retry.push(chunk.slice(half), chunk.slice(0, half))
        continue
      }
      if (error) {
        failed ??= dbError(`write lines ${chunk[0]!.line} to ${chunk.at(-1)!.line}`, error, status)
        return
      }
      pacer.took(chunk.length, performance.now() - started)
      const answer = data as unknown as ListVerdicts & { written: number }
      result.written += answer.written
      result.listed.push(...answer.listed)
      result.disposable.push(...answer.disposable)
      onProgress?.(result.written)
    }
  }
  // Settled, not raced: the import is taken out only once no chunk of it is on the way.
  for (const outcome of await Promise.allSettled(Array.from({ length: IMPORT_LIMITS.chunksAtOnce }, worker))) {
    if (outcome.status === 'rejected') failed ??= outcome.reason
  }
  if (failed !== null) {
    await abortImport(client, id).catch(() => undefined)
    throw failed
  }
  result.listed.sort((a, b) => a - b)
  result.disposable.sort((a, b) => a - b)

  // The first call commits (in the same transaction as its first batch: cut by the timeout, both
  // are undone, and it is made again smaller); a failure of a later one leaves work that the
  // dispatcher's next runs finish (waitlist_purge_pending).
  const confirming = new CallPacer(IMPORT_LIMITS.firstConfirmEntries, IMPORT_LIMITS.confirmEntries)
  const commit = async () => {
    const entries = confirming.size
    const started = performance.now()
    const answer = await client.rpc('waitlist_import_commit', { import_id: id, max_messages: IMPORT_LIMITS.releasePerCall, max_entries: entries })
    if (!answer.error) confirming.took(entries, performance.now() - started)
    return { ...answer, again: answer.error?.code === STATEMENT_TIMEOUT && confirming.cut(entries) }
  }
  let first = await commit()
  while (first.again) first = await commit()
  if (first.error) {
    await abortImport(client, id).catch(() => undefined)
    throw dbError('commit the import', first.error, first.status)
  }
  let released = first.data === 0
  if (!released) {
    // Each call is whole or undone, so one that failed is made again, a few times, before the rest is left to the dispatcher.
    let failures = 0
    const follow = async () => {
      while (failures < IMPORT_LIMITS.followRetries) {
        const { data, error, again } = await commit()
        if (error && !again) failures++
        else if (data === 0) return
      }
    }
    await Promise.all(Array.from({ length: IMPORT_LIMITS.chunksAtOnce }, follow))
    released = failures < IMPORT_LIMITS.followRetries
  }
  return { ...result, released }
}

/** 57014: the statement was cut by the API's timeout, and its transaction undone. */
const STATEMENT_TIMEOUT = '57014'

/**
 * How many rows a call takes. The API cuts a statement at 8 s, and a row's cost differs from one
 * server to another (PGlite, a small hosted instance, a busy one: about a millisecond a row here
 * on PostgreSQL, two or more on PGlite), so each call's time sets the next call's size, aiming at
 * IMPORT_LIMITS.callMs, within [minimum, maximum]; a call cut by the timeout is made again in halves.
 */
export class CallPacer {
  constructor(
    public size: number,
    private readonly maximum: number,
    private readonly minimum = Math.min(IMPORT_LIMITS.minimumCallRows, maximum),
  ) {}

  took(rows: number, ms: number): void {
    if (rows > 0 && ms > 0) this.size = Math.max(this.minimum, Math.min(this.maximum, Math.floor((rows * IMPORT_LIMITS.callMs) / ms)))
  }

  /** After a call of `rows` was cut by the timeout: whether a smaller one may be tried. */
  cut(rows: number): boolean {
    this.size = Math.max(this.minimum, Math.floor(rows / 2))
    return rows > this.minimum
  }
}

/** Takes an import out, a batch a call; with onlyQuiet, only one whose run has died. False when it was still writing. */
async function abortImport(client: OwnerClient, id: string, { onlyQuiet = false } = {}): Promise<boolean> {
  for (;;) {
    const { data, error, status } = await client.rpc('waitlist_import_abort', { import_id: id, only_quiet: onlyQuiet })
    if (error?.code === IN_USE) return false
    if (error) throw dbError('take the unfinished import out again', error, status)
    if (data === 0) return true
  }
}
