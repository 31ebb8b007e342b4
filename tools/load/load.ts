/**
 * `npm run load`: the waitlist load check. Starts its own in-memory PostgREST double (or uses
 * another double on this machine with --url) and, at the production limits, sends:
 *   burst    concurrent sign-ups from many simulated clients (each its own loopback address),
 *   flood    sign-ups all at once from one client: cut exactly at the per-client limit,
 *   spoofed  sign-ups all at once from one client that forges a new address in every forwarding
 *            header of every request: cut exactly at the per-client limit all the same,
 *   office   50 colleagues behind one office address: all let through;
 * then reconciles the answers with the database, prints the figures, and exits non-zero if any
 * accepted sign-up is missing, any row was not accepted, or a phase was not cut (or let through)
 * exactly. See tools/load/load-waitlist.ts.
 * On its own double it then carries every stored sign-up through double opt-in: four dispatchers
 * at once deliver the confirmation e-mails into maildev, every link is confirmed, the Slack
 * messages go to a local stand-in, and each message must have been sent exactly once
 * (tools/load/load-confirmation.ts); each confirmation's entry.confirmed webhook goes to a local
 * receiver that fails one delivery in ten, and must be heard exactly once (tools/load/load-webhooks.ts). Then it lets --admit people in (1000 by default): one
 * waitlist_invite_next call, the invitations delivered by four dispatchers at once, each e-mailed
 * exactly once (tools/load/load-admission.ts). With --url both stages are skipped: dispatching
 * would deliver another double's outbox.
 *
 *   tsx tools/load/load.ts [--clients 100] [--per-client 10] [--concurrency 50]
 *                                [--flood 80] [--spoofed 100] [--office 50] [--admit 1000] [--time-limit 120]
 *                                [--client-limit N] [--url http://127.0.0.1:54321 --anon-key … --service-role-key …]
 *
 * On its own double the per-client limit is read from the database (production: 50 per hour);
 * with --url it changes nothing: --client-limit must state the double's limit (default 50).
 *
 * Exit codes: 0 reconciled, 1 reconciliation failed, 2 bad arguments, 3 time limit or error.
 */
import { parseArgs } from 'node:util'
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../supabase-local/keys'
import { startLocalSupabase, type LocalSupabase } from '../supabase-local/server'
import { formatAdmissionReport, runAdmissionCheck } from './load-admission'
import { formatConfirmationReport, runConfirmationCheck } from './load-confirmation'
import { formatWebhookReport, reconcileWebhooks, startFlakyReceiver } from './load-webhooks'
import { serviceClient } from '../../lib/supabase/service'
import { assertLoopbackUrl, deleteRunRows, fetchRunRows, formatReport, runLoadCheck, validatePlan, type LoadPlan, type LoadTarget } from './load-waitlist'

const PRODUCTION_CLIENT_LIMIT = 50

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
      flood: { type: 'string', default: '80' },
      spoofed: { type: 'string', default: '100' },
      office: { type: 'string', default: '50' },
      admit: { type: 'string', default: '1000' },
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
  console.log(
    'Usage: tsx tools/load/load.ts [--clients N] [--per-client N] [--concurrency N] [--flood N] [--spoofed N] [--office N] [--admit N] [--time-limit SECONDS] [--client-limit N] [--url URL]',
  )
  process.exit(0)
}

const int = (name: string, value: string | undefined): number => {
  const n = Number(value)
  if (!Number.isInteger(n)) fail(2, `--${name} must be an integer (got ${value})`)
  return n
}
const plan: LoadPlan = {
  clients: int('clients', values.clients),
  perClient: int('per-client', values['per-client']),
  concurrency: int('concurrency', values.concurrency),
  flood: int('flood', values.flood),
  spoofed: int('spoofed', values.spoofed),
  office: int('office', values.office),
  clientLimit: values['client-limit'] !== undefined ? int('client-limit', values['client-limit']) : PRODUCTION_CLIENT_LIMIT,
  timeLimitMs: int('time-limit', values['time-limit']) * 1000,
}
const admit = int('admit', values.admit)
if (admit < 1) fail(2, '--admit must be at least 1')
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
const hardStop = setTimeout(
  () => fail(3, `Stopped: the run exceeded its time limit of ${plan.timeLimitMs / 1000} s (+60 s, and 10 minutes for the confirmation and admission stages).`),
  plan.timeLimitMs + 660_000,
)
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
    if (values['client-limit'] !== undefined) {
      await local.db.query('update private.waitlist_limits set per_client = $1', [plan.clientLimit])
    } else {
      const { rows } = await local.db.query<{ per_client: number }>('select per_client from private.waitlist_limits')
      plan.clientLimit = rows[0]?.per_client ?? PRODUCTION_CLIENT_LIMIT
    }
    const invalidAtLimit = validatePlan(plan)
    if (invalidAtLimit.length) throw new Error(`Invalid options: ${invalidAtLimit.join('; ')}`)
    console.log(
      `Target: in-memory PostgREST double at ${target.url}; per-client limit ${plan.clientLimit} per hour (the migrations' value unless --client-limit)`,
    )
  }

  const report = await runLoadCheck(target, plan)
  console.log(formatReport(report))
  exitCode = report.ok ? 0 : 1
  if (values.url) {
    await deleteRunRows(target, report.runId)
    console.log("Confirmation stage skipped: it runs on the load check's own double only.")
  } else if (report.ok) {
    // Retries at once instead of after the production backoff, and no hourly e-mail cap (it would
    // hold the burst's e-mails back for an hour; tests/integration/waitlist-abuse.test.ts tests it).
    await local?.db.exec(
      'update private.waitlist_confirmation_settings set retry_base_seconds = 0; update private.waitlist_mail_caps set emails_per_hour = 1000000; update private.waitlist_webhook_settings set enabled = true, retry_base_seconds = 0',
    )
    const rows = await fetchRunRows(target, report.runId, AbortSignal.timeout(30_000))
    const flaky = await startFlakyReceiver()
    const confirmation = await runConfirmationCheck(
      target,
      rows.map((row) => row.email),
      flaky.channel,
    )
    console.log(formatConfirmationReport(confirmation))
    const webhooks = await reconcileWebhooks(serviceClient(target.url, target.serviceRoleKey), flaky, confirmation.confirmed).finally(() =>
      flaky.receiver.close(),
    )
    console.log(formatWebhookReport(webhooks))
    if (confirmation.problems.length || webhooks.problems.length) exitCode = 1
    else {
      const admission = await runAdmissionCheck(target, admit)
      console.log(formatAdmissionReport(admission))
      if (admission.problems.length) exitCode = 1
    }
  }
} catch (error) {
  console.error(`Load check could not complete: ${error instanceof Error ? error.message : String(error)}`)
  exitCode = 3
} finally {
  await local?.close()
}
process.exit(exitCode)
