/**
 * Bringing a list from another tool (issue #52), `npm run waitlist:import -- list.csv`
 * (tools/owner/waitlist-import.ts): every row read and checked here with the form's own rules
 * (components/waitlist/rules.ts, answers against the questions published now), each bad one
 * reported by its line with the reason; then the good rows written by the database in chunks,
 * all or none (public.waitlist_import_*, supabase/schemas/16_imports.sql, which also skips anyone
 * already on the list, in any spelling, and flags disposable-mail domains).
 *
 * The CSV is read by csvRecords below rather than a library: the one the field uses (csv-parse 7)
 * stops reading at the first oversized record, and a 10 MB line must be reported by its number
 * while the rows after it are still checked.
 */
import { createHash, randomUUID } from 'node:crypto'
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
  /** Rows and JSON characters a chunk: well within the API's 8 s statement timeout and its 1 MB body. */
  chunkRows: 5000,
  chunkChars: 600_000,
  /** Chunks written at once, each on a connection of its own. */
  chunksAtOnce: 2,
  /** Held messages released a call at the commit (public.waitlist_import_commit). */
  releasePerCall: 20_000,
} as const

// ---------------------------------------------------------------------------------------------
// Reading the file

/** One record of the file: its values, or why it cannot be read; `line` is where it starts. */
export type CsvRecord = { line: number; fields: string[] } | { line: number; problem: string }

const UNQUOTED_END = /[,\r\n"]/g

/**
 * RFC 4180 records (comma-separated, "" inside quotes, CRLF, LF or CR line ends), each with the
 * line it starts on. A record over `maxChars`, or one whose quotes are broken, is one problem at
 * its line, and reading goes on at the next record.
 */
export function* csvRecords(text: string, maxChars: number = IMPORT_LIMITS.recordChars): Generator<CsvRecord> {
  const length = text.length
  let at = 0
  let line = 1
  while (at < length) {
    const start = at
    const startLine = line
    const fields: string[] = []
    let problem: string | null = null
    for (;;) {
      let value = ''
      if (text[at] === '"') {
        at++
        for (;;) {
          const quote = text.indexOf('"', at)
          const piece = text.slice(at, quote < 0 ? length : quote)
          line += lineBreaks(piece)
          if (at - start <= maxChars) value += piece
          if (quote < 0) {
            at = length
            problem ??= 'a quoted value is never closed'
            break
          }
          if (text[quote + 1] === '"') {
            value += '"'
            at = quote + 2
            continue
          }
          at = quote + 1
          break
        }
        if (at < length && !isDelimiter(text[at]!)) {
          problem ??= 'text after a closing quote (a quote inside a value is written twice: "")'
          at = skipValue(text, at)
        }
      } else {
        UNQUOTED_END.lastIndex = at
        let end = UNQUOTED_END.exec(text)
        while (end && end[0] === '"') {
          problem ??= 'a quote inside a value that does not start with one'
          end = UNQUOTED_END.exec(text)
        }
        const stop = end ? end.index : length
        if (stop - start <= maxChars) value = text.slice(at, stop)
        at = stop
      }
      fields.push(value)
      if (text[at] === ',') {
        at++
        continue
      }
      if (text[at] === '\r') {
        at++
        if (text[at] === '\n') at++
      } else if (text[at] === '\n') at++
      line++
      break
    }
    if (at - start > maxChars) problem = `longer than ${maxChars.toLocaleString('en')} characters`
    if (problem) yield { line: startLine, problem }
    else if (fields.some((field) => field !== '')) yield { line: startLine, fields }
  }
}

const isDelimiter = (char: string) => char === ',' || char === '\r' || char === '\n'

function lineBreaks(text: string): number {
  let count = 0
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (char === '\n' || (char === '\r' && text[index + 1] !== '\n')) count++
  }
  return count
}

function skipValue(text: string, from: number): number {
  let at = from
  while (at < text.length && !isDelimiter(text[at]!)) at++
  return at
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
    if (error) return { problem: `${what} ${error === 'too_long' ? `is over ${QUESTION_LIMITS.answer} characters` : ERROR_WORDS[error]}` }
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
 * Every record checked: the good rows (times ranked, earliest first) and each bad one with its
 * line and reason. A mailbox named twice (any spelling: components/waitlist/email.ts, mailboxKey)
 * keeps its first line. Null with a problem when the file cannot be read at all.
 */
export function planImport(text: string, questions: readonly PublishedQuestion[], now = new Date()): ImportPlan | { problem: string } {
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
    const row = rowProblem(record.fields, header.length) ?? readRow(record.line, record.fields, columns, answerColumns, now)
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

/** The chunks of rows a call each: at most chunkRows, and at most chunkChars of JSON. */
export function* chunksOf<T>(
  rows: readonly T[],
  size: (row: T) => number,
  { maxRows = IMPORT_LIMITS.chunkRows, maxChars = IMPORT_LIMITS.chunkChars }: { maxRows?: number; maxChars?: number } = {},
): Generator<T[]> {
  let chunk: T[] = []
  let chars = 0
  for (const row of rows) {
    const rowChars = size(row)
    if (chunk.length > 0 && (chunk.length >= maxRows || chars + rowChars > maxChars)) {
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
  /** Open imports of this same file that a command left behind, taken out first. */
  abandoned: number
  /** False when the messages' release stopped after the commit: the dispatcher finishes it. */
  released?: boolean
}

/**
 * Writes the rows as one import: any open import of the same file (a run that died) taken out
 * first, then begin, the chunks, and the commit; on any failure before the commit, the import is
 * taken out again and the error thrown: nothing half imported.
 */
export async function importRows(
  client: OwnerClient,
  rows: readonly ImportRow[],
  {
    consent,
    sha256,
    onProgress,
    chunkRows = IMPORT_LIMITS.chunkRows,
  }: { consent: string | null; sha256: string; onProgress?: (written: number) => void; chunkRows?: number },
): Promise<ImportResult> {
  const { data: open, error: openError, status: openStatus } = await client.rpc('waitlist_imports_open')
  if (openError) throw dbError('read the open imports', openError, openStatus)
  let abandoned = 0
  for (const left of open ?? []) {
    if (left.file_sha256 !== sha256) continue
    await abortImport(client, left.id)
    abandoned++
  }

  const id = randomUUID()
  const timed = rows.filter((row) => row.rank !== null).length
  const begun = await client.rpc('waitlist_import_begin', { import_id: id, file_sha256: sha256, consent: consent ?? '', timed_rows: timed })
  if (begun.error) throw dbError('open the import', begun.error, begun.status)
  const result: ImportResult = { id, written: 0, listed: [], disposable: [], abandoned }
  const chunks = chunksOf(rows, rowChars, { maxRows: chunkRows })
  let failed: unknown = null
  // Two chunks on the way at once: each is a statement of its own in the database, and the import's
  // time is mostly theirs (the insert triggers), so a second connection nearly halves it.
  const worker = async () => {
    for (let next = chunks.next(); !next.done && failed === null; next = chunks.next()) {
      const chunk = next.value
      const { data, error, status } = await client.rpc('waitlist_import_chunk', { import_id: id, rows: chunk as unknown as never })
      if (error) {
        failed ??= dbError(`write lines ${chunk[0]!.line} to ${chunk.at(-1)!.line}`, error, status)
        return
      }
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
  // The first call commits (in the same transaction as its first release); a failure of a later
  // one leaves messages held that the dispatcher's next runs release (waitlist_purge_pending).
  let committed = false
  for (;;) {
    const { data, error, status } = await client.rpc('waitlist_import_commit', { import_id: id, max_messages: IMPORT_LIMITS.releasePerCall })
    if (error && !committed) {
      await abortImport(client, id).catch(() => undefined)
      throw dbError('commit the import', error, status)
    }
    if (error || data === 0) return { ...result, released: !error }
    committed = true
  }
}

async function abortImport(client: OwnerClient, id: string): Promise<void> {
  for (;;) {
    const { data, error, status } = await client.rpc('waitlist_import_abort', { import_id: id })
    if (error) throw dbError('take the unfinished import out again', error, status)
    if (data === 0) return
  }
}
