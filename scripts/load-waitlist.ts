/**
 * `npm run load`: the waitlist load check. Starts its own in-memory PostgREST double (or uses
 * another double on this machine with --url), sends a burst of concurrent sign-ups from many
 * simulated clients and a flood from one, reconciles the answers with the database, prints the
 * figures, and exits non-zero if any accepted sign-up is missing, any row was not accepted, or
 * the flood was not cut exactly at the per-client limit. See scripts/lib/load-waitlist.ts.
 *
 *   tsx scripts/load-waitlist.ts [--clients 100] [--per-client 10] [--concurrency 50]
 *                                [--flood 50] [--time-limit 120] [--client-limit N]
 *                                [--url http://127.0.0.1:54321 --anon-key … --service-role-key …]
 *
 * The per-client limit in production is 5 sign-ups per 10 minutes. The default burst sends 10
 * per address (1000 sign-ups from 100 addresses: offices, campuses, carrier NAT), so on its own
 * throwaway double it raises the limit to the burst's per-address count (--client-limit, default
 * --per-client) and still checks that the flood is cut exactly there. The limit's own behaviour
 * at production numbers is covered by the tests (tests/integration/waitlist-rate-limit.test.ts,
 * waitlist-load.test.ts). With --url it changes nothing: --client-limit must then state the
 * double's limit (default 5) and --per-client stay within it.
 *
 * Exit codes: 0 reconciled, 1 reconciliation failed, 2 bad arguments, 3 time limit or error.
 */
import { parseArgs } from 'node:util'
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../supabase/local/keys'
import { startLocalSupabase, type LocalSupabase } from '../supabase/local/server'
import { assertLoopbackUrl, deleteRunRows, formatReport, runLoadCheck, validatePlan, type LoadPlan, type LoadTarget } from './lib/load-waitlist'

const PRODUCTION_CLIENT_LIMIT = 5

function fail(code: number, message: string): never {
  console.error(message)
  process.exit(code)
}

let values: ReturnType<typeof parse>
function parse() {
  return parseArgs({
    options: {
      clients: { type: 'string', default: '100' },
      'per-client': { type: 'string', default: '10' },
      concurrency: { type: 'string', default: '50' },
      flood: { type: 'string', default: '50' },
      'time-limit': { type: 'string', default: '120' },
      'client-limit': { type: 'string' },
      url: { type: 'string' },
      'anon-key': { type: 'string', default: LOCAL_ANON_KEY },
      'service-role-key': { type: 'string', default: LOCAL_SERVICE_ROLE_KEY },
      help: { type: 'boolean', default: false },
    },
  }).values
}
try {
  values = parse()
} catch (error) {
  fail(2, error instanceof Error ? error.message : String(error))
}
if (values.help) {
  console.log('Usage: tsx scripts/load-waitlist.ts [--clients N] [--per-client N] [--concurrency N] [--flood N] [--time-limit SECONDS] [--client-limit N] [--url URL]')
  process.exit(0)
}

const int = (name: string, value: string | undefined): number => {
  const n = Number(value)
  if (!Number.isInteger(n)) fail(2, `--${name} must be an integer (got ${value})`)
  return n
}
const perClient = int('per-client', values['per-client'])
const plan: LoadPlan = {
  clients: int('clients', values.clients),
  perClient,
  concurrency: int('concurrency', values.concurrency),
  flood: int('flood', values.flood),
  clientLimit: values['client-limit'] !== undefined ? int('client-limit', values['client-limit']) : values.url ? PRODUCTION_CLIENT_LIMIT : perClient,
  timeLimitMs: int('time-limit', values['time-limit']) * 1000,
}
if (values.url) {
  try {
    assertLoopbackUrl(values.url)
  } catch (error) {
    fail(2, error instanceof Error ? error.message : String(error))
  }
}
const invalid = validatePlan(plan)
if (invalid.length) fail(2, `Invalid options: ${invalid.join('; ')}`)

// The run stops itself even if something hangs: the time limit for the sign-ups, plus a margin
// for starting the double and reading the rows back.
const hardStop = setTimeout(() => fail(3, `Stopped: the run exceeded its time limit of ${plan.timeLimitMs / 1000} s (+60 s).`), plan.timeLimitMs + 60_000)
hardStop.unref()

let local: LocalSupabase | undefined
let exitCode = 0
try {
  let target: LoadTarget
  if (values.url) {
    target = { url: values.url, anonKey: values['anon-key'], serviceRoleKey: values['service-role-key'] }
    console.log(`Target: ${target.url} (its limits as configured; expecting a per-client limit of ${plan.clientLimit})`)
  } else {
    local = await startLocalSupabase({ port: 0 })
    target = { url: local.url, anonKey: local.anonKey, serviceRoleKey: local.serviceRoleKey }
    await local.db.query('update private.waitlist_limits set per_client = $1', [plan.clientLimit])
    console.log(
      `Target: in-memory PostgREST double at ${target.url}; per-client limit set to ${plan.clientLimit} for this run` +
        (plan.clientLimit === PRODUCTION_CLIENT_LIMIT ? ' (the production value)' : ` (production: ${PRODUCTION_CLIENT_LIMIT}; see the header of this script)`),
    )
  }

  const report = await runLoadCheck(target, plan)
  console.log(formatReport(report))
  if (values.url) await deleteRunRows(target, report.runId)
  exitCode = report.ok ? 0 : 1
} catch (error) {
  console.error(`Load check could not complete: ${error instanceof Error ? error.message : String(error)}`)
  exitCode = 3
} finally {
  await local?.close()
}
process.exit(exitCode)
