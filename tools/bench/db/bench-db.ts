/**
 * `npm run bench:db`: the waitlist at 10,000, 100,000 and 1,000,000 entries on Debian's
 * PostgreSQL (issue #51, docs/engineers.md "Bench"). One throwaway cluster set up as the
 * real-server tests set theirs up (tools/supabase-local/real-postgres.ts); the list grown to each
 * size by the bulk path (./bulk.ts) and checked against the line's definition; every public call
 * timed through the API roles (./calls.ts); at the largest size the founders' tools as child
 * processes over REST (./owner-tools.ts); then e-mails per second with four dispatchers into
 * maildev (./mail.ts). Targets and verdicts: ./targets.ts. Report: docs/bench-db.md (a run with
 * other sizes or samples writes .local/bench/bench-db.md instead).
 *
 *   npm run bench:db
 *   npm run bench:db -- --sizes 10000,100000 --samples 50 --no-tools --no-mail
 *
 * Exits 1 when it could not measure (or the bulk-built line is wrong), 2 when a target is missed.
 *
 * Ports: the console and maildev on 5100 + BENCH_PORT_OFFSET (default 0) and up; PostgreSQL and
 * the REST double on free ports; everything on 127.0.0.1.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { parseArgs } from 'node:util'
import { ensurePostgres } from '../../local/postgres'
import { LOCAL_SERVICE_ROLE_KEY } from '../../supabase-local/keys'
import { poolDatabase, startApiPostgres } from '../../supabase-local/real-postgres'
import { startRestOver } from '../../supabase-local/server'
import { sampleMachine } from '../machine-load'
import { checkLine, growList } from './bulk'
import { timeCalls } from './calls'
import { timeMail } from './mail'
import { timeOwnerTools } from './owner-tools'
import { dbVerdicts, renderDbReport, type DbBenchReport, type SizeRun } from './report'
import { callRow, type CallRow } from './targets'

const DEFAULT_SIZES = [10_000, 100_000, 1_000_000]
const DEFAULT_SAMPLES = 100

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: DEFAULT_SIZES.join(',') },
    samples: { type: 'string', default: String(DEFAULT_SAMPLES) },
    rounds: { type: 'string', default: '3' },
    'tool-deadline': { type: 'string', default: '240' },
    'mail-queue': { type: 'string', default: '10000' },
    tools: { type: 'boolean', default: true },
    mail: { type: 'boolean', default: true },
  },
  allowNegative: true,
  strict: true,
})

const sizes = values.sizes
  .split(',')
  .map(Number)
  .sort((a, b) => a - b)
if (sizes.some((size) => !Number.isSafeInteger(size) || size < 1000)) throw new Error(`--sizes takes entry counts of at least 1,000, not ${values.sizes}`)
const samples = Number(values.samples)
const rounds = Number(values.rounds)
// Only a run of every size with every stage is recorded in docs/; the other options show in its command line.
const full = sizes.join(',') === DEFAULT_SIZES.join(',') && values.tools && values.mail
const portBase = 5100 + Number(process.env.BENCH_PORT_OFFSET ?? 0)
const log = (line: string) => console.log(`[bench:db] ${line}`)

const started = performance.now()
const startedAt = new Date()
const load = sampleMachine()
const binaries = await ensurePostgres()
if (!binaries.ok) throw new Error(binaries.reason)
// The bulk load writes gigabytes of WAL: checkpoints by time, not by size, while it runs.
const postgres = await startApiPostgres(binaries.bin, { maxConnections: 120, settings: ['max_wal_size=8GB', 'checkpoint_timeout=30min'] })
const report: DbBenchReport = {
  startedAt: startedAt.toISOString(),
  command: `npm run bench:db${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  postgres: postgres.version,
  node: process.version,
  cores: os.cpus().length,
  sizes: [],
  calls: [],
  tools: null,
  mail: null,
  load: { samples: 0, cores: 0, loadAverage: { min: 0, median: 0, max: 0 }, benchCores: null, otherCores: null },
  totalMs: 0,
}

let failure: unknown
try {
  // The bench signs up, confirms and asks for links far more often from far more networks than a
  // visitor may (tools/supabase-local/relax-rate-limits.sql), and claims 100,000 e-mails at once.
  await postgres.owner.query(await readFile(new URL('../../supabase-local/relax-rate-limits.sql', import.meta.url), 'utf8'))
  await postgres.owner.query('update private.waitlist_mail_caps set unproven_per_recipient = 1000000')

  // Sign-ups spread over the weeks before today, a week per size.
  const firstSignUp = new Date(Date.now() - (sizes.length + 1) * 7 * 86_400_000)
  let size = 0
  for (const [step, target] of sizes.entries()) {
    log(`growing the list from ${size.toLocaleString('en-US')} to ${target.toLocaleString('en-US')} entries…`)
    const buildStarted = performance.now()
    await growList(postgres.owner, size, target, new Date(firstSignUp.getTime() + step * 7 * 86_400_000))
    const buildMs = performance.now() - buildStarted
    size = target
    const check = await checkLine(postgres.owner)
    const checkMs = performance.now() - buildStarted - buildMs
    if (!check.ok) throw new Error(`The bulk-built list of ${target} is not what the line's definition says:\n${check.problems.join('\n')}`)
    log(`built in ${(buildMs / 1000).toFixed(1)} s; the line matches its definition for ${check.checked} entries; timing the calls…`)
    const timeStarted = performance.now()
    const timed = await timeCalls(postgres.api, postgres.owner, { samples, rounds, tag: String(target) }, log)
    const rows: CallRow[] = timed.map((t) => callRow(t.call, target, t.samples, t.failures, t.error))
    report.calls.push(...rows)
    const sizeRun: SizeRun = { size: target, buildMs, checkMs, checked: check.checked, timeMs: performance.now() - timeStarted }
    report.sizes.push(sizeRun)
    for (const row of rows) log(`  ${row.call}: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms`)
  }

  if (values.tools) {
    log(`the founders' tools at ${size.toLocaleString('en-US')} entries…`)
    const rest = await startRestOver(poolDatabase(postgres.api))
    try {
      const { rows } = await postgres.owner.query<{ n: string }>('select count(*)::text as n from public.waitlist')
      report.tools = {
        size,
        runs: await timeOwnerTools(
          {
            url: rest.url,
            serviceRoleKey: LOCAL_SERVICE_ROLE_KEY,
            consolePort: portBase,
            deadlineMs: Number(values['tool-deadline']) * 1000,
            rows: Number(rows[0]?.n ?? 0),
          },
          log,
        ),
      }
      // The imported list goes again: the mail stage counts the outbox's e-mails.
      await postgres.owner.query(`delete from public.waitlist where utm_medium = 'import'`)
      await postgres.owner.query(`delete from private.waitlist_imports`)
    } finally {
      await rest.close()
    }
  }

  if (values.mail) {
    log('e-mails per second…')
    report.mail = await timeMail(postgres, { queue: Number(values['mail-queue']), dispatchers: 4, smtpPort: portBase + 25, webPort: portBase + 80 }, log)
  }
} catch (error) {
  failure = error
} finally {
  await postgres.close()
}

report.load = load.stop()
report.totalMs = performance.now() - started
const markdown = renderDbReport(report)
const out = full ? new URL('../../../docs/bench-db.md', import.meta.url) : new URL('../../../.local/bench/bench-db.md', import.meta.url)
if (!failure) {
  await mkdir(new URL('.', out), { recursive: true })
  await writeFile(out, markdown)
}
console.log(`\n${markdown}`)
if (failure) {
  console.error('[bench:db] failed:', failure)
  process.exit(1)
}
log(`report written to ${out.pathname}`)
// Like `npm run bench`: a missed target is a failing run.
const missed = dbVerdicts(report).filter((verdict) => !verdict.pass).length
if (missed > 0) {
  log(`${missed} target${missed === 1 ? '' : 's'} missed`)
  process.exit(2)
}
