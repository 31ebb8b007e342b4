/**
 * Site owner command: bring a list from another tool (issue #52).
 *
 *   npm run waitlist:import -- list.csv --dry-run   check every row, write nothing
 *   npm run waitlist:import -- list.csv             import the good rows: pending, each gets our
 *                                                   confirmation e-mail within the hourly cap
 *   npm run waitlist:import -- list.csv --consented "Opted in on getwaitlist.com, March 2026"
 *                                                   import them confirmed, the consent kept with each
 *
 * The CSV's first line names its columns: name and email, and any of project (or company),
 * signed_up_at (or created_at: an ISO 8601 date or time, which keeps their order in line), source,
 * language, and one per question published now (its key, or answer_<key> as our export writes
 * it). tools/owner/import.ts checks every row and the database writes the good ones, all or none
 * (supabase/schemas/16_imports.sql). Running the same file again adds nobody. Reads the
 * service-role key from the environment like the other owner commands, else the local double.
 */
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { cleanWaitlistText, isPlainWaitlistText } from '../../components/waitlist/rules'
import { checkAgainstList, fileSha256, IMPORT_LIMITS, importRows, importText, planImport, type ImportResult, type ListVerdicts } from './import'
import { ownerClient, printable, publishedLanguages, publishedQuestions } from './owner'

const usage = 'Usage: npm run waitlist:import -- FILE.csv [--dry-run] [--consented "where and when they opted in"]'

let args
try {
  args = parseArgs({ options: { 'dry-run': { type: 'boolean', default: false }, consented: { type: 'string' } }, allowPositionals: true, strict: true })
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`)
  process.exit(2)
}
const [file, ...extra] = args.positionals
const dryRun = args.values['dry-run'] ?? false
const consent = args.values.consented === undefined ? null : cleanWaitlistText(args.values.consented)
if (!file || extra.length > 0) {
  console.error(`Name one CSV file.\n${usage}`)
  process.exit(2)
}
if (consent !== null && (consent === '' || consent.length > IMPORT_LIMITS.consent || !isPlainWaitlistText(consent))) {
  console.error(`--consented takes where and when they opted in, as plain text of 1 to ${IMPORT_LIMITS.consent} characters.\n${usage}`)
  process.exit(2)
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`
const lines = (numbers: readonly number[]) => `line${numbers.length === 1 ? '' : 's'} ${numbers.join(', ')}`

try {
  const bytes = await readFile(file)
  const { config, client } = ownerClient(process.env)
  console.error(`Waitlist at ${config.url}${config.local ? ' (local)' : ''}`)
  const [questions, languages] = await Promise.all([publishedQuestions(client), publishedLanguages(client)])
  const read = importText(bytes)
  const plan = 'problem' in read ? read : planImport(read.text, questions, new Date(), languages)
  if ('problem' in plan) {
    console.error(`Not imported: ${printable(file)}: ${plan.problem}.`)
    process.exit(2)
  }
  const out: string[] = [`${printable(file)}: ${count(plan.rows.length + plan.bad.length, 'row')} read.`]
  if (plan.ignored.length > 0) out.push(`Columns not read (neither a field nor a question published now): ${plan.ignored.map(printable).join(', ')}.`)
  if (plan.bad.length > 0) {
    out.push(`Not imported, ${count(plan.bad.length, 'bad row')}:`)
    for (const row of plan.bad) out.push(`  line ${row.line}: ${printable(row.reason)}`)
  }
  const verdicts: ListVerdicts & Partial<ImportResult> = dryRun
    ? await checkAgainstList(client, plan.rows)
    : await importRows(client, plan.rows, {
        consent,
        sha256: fileSha256(bytes),
        onProgress: (written) => console.error(`  ${count(written, 'entry', 'entries')} written…`),
        onWaiting: (open) => console.error(`  Waiting for another import (${open.id}), still writing at ${open.active_at}…`),
      })
  if (verdicts.abandoned)
    out.push(
      `${count(verdicts.abandoned, 'unfinished import')} of a run that stopped ${verdicts.abandoned === 1 ? 'was' : 'were'} taken out first (nobody in ${verdicts.abandoned === 1 ? 'it' : 'them'} was on the list yet).`,
    )
  if (verdicts.released === false)
    out.push(`Imported, but some of them are still being confirmed or their e-mails and webhooks held: the dispatcher's next runs finish it.`)
  if (verdicts.listed.length > 0) out.push(`Already on the list (any spelling), skipped: ${lines(verdicts.listed)}.`)
  if (verdicts.disposable.length > 0) out.push(`At a disposable-mail domain, imported and flagged "disposable": ${lines(verdicts.disposable)}.`)
  const people = verdicts.written ?? plan.rows.length - verdicts.listed.length
  const how =
    consent === null
      ? 'pending: each gets our confirmation e-mail, after every other e-mail, within the hourly e-mail cap'
      : `confirmed, with the consent "${printable(consent)}" kept for each`
  out.push(`${dryRun ? 'Would import' : 'Imported'} ${count(people, 'person', 'people')}, ${how}.${dryRun ? ' Nothing was written (--dry-run).' : ''}`)
  process.stdout.write(`${out.join('\n')}\n`)
} catch (error) {
  console.error(`Nothing imported: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
