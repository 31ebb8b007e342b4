/**
 * The waitlist load check (`npm run load`, tools/load/load.ts), as functions a test can
 * call: send a burst of sign-ups from many simulated clients and a flood from one, through the
 * real supabase-js client and the site's joinWaitlist(), then reconcile every answer with the
 * rows the database holds, read back with the service-role key.
 *
 * It proves what a founder needs: no accepted sign-up is lost (and nothing is stored that was not
 * accepted); a scripted flood from one address is cut exactly at the per-client limit, also when
 * every request forges a new address in its headers; and 50 colleagues behind one office address
 * all get in.
 *
 * Simulated clients are real TCP peers: each connects from its own loopback address
 * (127.1.0.0/16 and up, see tools/supabase-local/loopback-fetch.ts), because the double, like the
 * platform's edge, ignores every address header a client writes. Requests go to the target URL,
 * which the callers restrict to the loopback interface.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { joinWaitlist, type WaitlistClient, type WaitlistInsertResponse } from '../../components/waitlist/join'
import { loopbackAddress, loopbackFetch } from '../supabase-local/loopback-fetch'

export interface LoadTarget {
  url: string
  anonKey: string
  serviceRoleKey: string
}

export interface LoadPlan {
  /** Simulated clients (addresses) in the burst. */
  clients: number
  /** Sign-ups per client in the burst; must not exceed clientLimit, or the burst is cut by design. */
  perClient: number
  /** Requests in flight at once. */
  concurrency: number
  /** Sign-ups from one further client, sent all at once, to be cut at clientLimit. */
  flood: number
  /**
   * Sign-ups from one further client, sent all at once, each forging a new address in
   * X-Forwarded-For, CF-Connecting-IP and X-Real-IP: to be cut at clientLimit all the same.
   */
  spoofed: number
  /** Colleagues signing up from one office address (one company domain): all let through. */
  office: number
  /** The per-client limit the target enforces (private.waitlist_limits.per_client). */
  clientLimit: number
  /** Every request is sent and answered within this time, or the run fails. */
  timeLimitMs: number
}

export type Phase = 'burst' | 'flood' | 'spoofed' | 'office'
export const PHASES: readonly Phase[] = ['burst', 'flood', 'spoofed', 'office']
export type Outcome = 'accepted' | 'limited' | 'failed'

export interface SignupRecord {
  phase: Phase
  client: string
  email: string
  /** HTTP status; 0 when no response arrived (network error, time limit). */
  status: number
  outcome: Outcome
  /** Why a failed sign-up failed: joinWaitlist's result, error code and status. */
  reason?: string
  ms: number
}

export interface PhaseSummary {
  sent: number
  accepted: number
  limited: number
  failed: number
  seconds: number
  /** Accepted sign-ups per second of the phase's wall time. */
  acceptedPerSecond: number
  /** Latency of all requests of the phase, nearest rank, in milliseconds. */
  p50: number
  p95: number
  p99: number
  max: number
}

export interface LoadReport {
  runId: string
  plan: LoadPlan
  burst: PhaseSummary
  flood: PhaseSummary
  spoofed: PhaseSummary
  office: PhaseSummary
  /** Rows of this run in the database. */
  rows: number
  /** Rows of this run flagged for the owner (an unusual burst of one e-mail domain). */
  flagged: number
  /** Reconciliation failures; empty means the run passed. */
  problems: string[]
  ok: boolean
}

// Simulated addresses: 127.1.0.1 upwards, 254 per /24.
const ADDRESS_SPACE = 254 * 256 * 200

export function validatePlan(plan: LoadPlan): string[] {
  const problems: string[] = []
  const positive = (name: keyof LoadPlan, min = 1) => {
    if (!Number.isInteger(plan[name]) || plan[name] < min) problems.push(`${name} must be an integer >= ${min} (got ${plan[name]})`)
  }
  positive('clients')
  positive('perClient')
  positive('concurrency')
  positive('flood', 0)
  positive('spoofed', 0)
  positive('office', 0)
  positive('clientLimit')
  positive('timeLimitMs')
  if (plan.clients + 3 > ADDRESS_SPACE) problems.push(`clients must be below ${ADDRESS_SPACE - 3}`)
  if (plan.office > plan.clientLimit) problems.push(`office (${plan.office}) exceeds the per-client limit (${plan.clientLimit}): it would be cut by design`)
  if (plan.perClient > plan.clientLimit) {
    problems.push(`perClient (${plan.perClient}) exceeds the per-client limit (${plan.clientLimit}): the burst would be cut by design`)
  }
  if (plan.clients * plan.perClient + plan.flood + plan.spoofed + plan.office > 100_000) problems.push('at most 100000 sign-ups per run')
  return problems
}

/** Loopback only: this is a load generator, and it must never point at anything but this machine. */
export function assertLoopbackUrl(url: string): void {
  let host: string
  try {
    host = new URL(url).hostname
  } catch {
    throw new Error(`Not a URL: ${url}`)
  }
  const loopback = host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host)
  if (!loopback) throw new Error(`Refusing to load ${host}: only a double on this machine (127.0.0.0/8, localhost, [::1]) may be loaded.`)
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number
}

export function summarize(records: readonly SignupRecord[], seconds: number): PhaseSummary {
  const count = (outcome: Outcome) => records.filter((record) => record.outcome === outcome).length
  const latencies = records.map((record) => record.ms).sort((a, b) => a - b)
  const accepted = count('accepted')
  const round = (value: number) => Math.round(value * 10) / 10
  return {
    sent: records.length,
    accepted,
    limited: count('limited'),
    failed: count('failed'),
    seconds: round(seconds),
    acceptedPerSecond: seconds > 0 ? round(accepted / seconds) : 0,
    p50: round(percentile(latencies, 0.5)),
    p95: round(percentile(latencies, 0.95)),
    p99: round(percentile(latencies, 0.99)),
    max: round(latencies.at(-1) ?? 0),
  }
}

interface Job {
  phase: Phase
  client: string
  supabase: SupabaseClient
  email: string
  name: string
}

const NO_SESSION = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }

/** The site's anon client as one visitor's machine: its own TCP source address, optional extra headers. */
function clientFor(target: LoadTarget, address: string, headers: Record<string, string> = {}): SupabaseClient {
  return createClient(target.url, target.anonKey, { auth: NO_SESSION, global: { fetch: loopbackFetch(address), headers } })
}

/** A forged address for the spoofing phase (TEST-NET-2, never contacted: it is only a header value). */
function forgedAddress(index: number): string {
  return `198.51.${Math.floor(index / 254) % 256}.${(index % 254) + 1}`
}

/** One sign-up through joinWaitlist, the site's own code path, keeping the HTTP status it saw. */
async function signUp(job: Job, deadline: AbortSignal): Promise<SignupRecord> {
  let status = 0
  const client: WaitlistClient = {
    from: (table) => ({
      insert: (row) =>
        job.supabase
          .from(table)
          .insert(row)
          .abortSignal(deadline)
          .then((response): WaitlistInsertResponse => {
            status = response.status
            return response
          }),
    }),
  }
  const started = performance.now()
  const result = await joinWaitlist(client, { name: job.name, email: job.email })
  const ms = performance.now() - started
  const base = { phase: job.phase, client: job.client, email: job.email, status, ms }
  if (result.status === 'saved') return { ...base, outcome: 'accepted' }
  if (result.status === 'rate_limited') return { ...base, outcome: 'limited' }
  const detail = result.status === 'failed' ? `${result.message}${result.code ? ` [${result.code}]` : ''}` : result.message
  return { ...base, outcome: 'failed', reason: `${result.status}: ${detail} (HTTP ${status})` }
}

/** Runs jobs with at most `concurrency` in flight; jobs not started by the deadline fail unsent. */
async function runPool(jobs: readonly Job[], concurrency: number, deadline: AbortSignal): Promise<SignupRecord[]> {
  const records: SignupRecord[] = new Array<SignupRecord>(jobs.length)
  let next = 0
  const worker = async () => {
    for (let index = next++; index < jobs.length; index = next++) {
      const job = jobs[index] as Job
      records[index] = deadline.aborted
        ? { phase: job.phase, client: job.client, email: job.email, status: 0, outcome: 'failed', reason: 'not sent: time limit', ms: 0 }
        : await signUp(job, deadline)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker))
  return records
}

export interface StoredRow {
  email: string
  flag?: string | null
}

/** Every row of this run, read with the service-role key, paging past the API's 1000-row cap. */
export async function fetchRunRows(target: LoadTarget, runId: string, deadline: AbortSignal): Promise<StoredRow[]> {
  const owner = createClient(target.url, target.serviceRoleKey, { auth: NO_SESSION })
  const rows: StoredRow[] = []
  const page = 1000
  for (let from = 0; ; from += page) {
    const { data, error, status } = await owner
      .from('waitlist')
      .select('email,flag')
      .like('email', `load.${runId}.%`)
      .order('id')
      .range(from, from + page - 1)
      .abortSignal(deadline)
    if (error) throw new Error(`Could not read the waitlist back (HTTP ${status}): ${error.message}`)
    rows.push(...(data as StoredRow[]))
    if (data.length < page) return rows
  }
}

/** Deletes this run's rows (a run against a long-lived double should not leave them behind). */
export async function deleteRunRows(target: LoadTarget, runId: string): Promise<void> {
  const owner = createClient(target.url, target.serviceRoleKey, { auth: NO_SESSION })
  const { error } = await owner.from('waitlist').delete().like('email', `load.${runId}.%`)
  if (error) throw new Error(`Could not delete the run's rows: ${error.message}`)
}

/**
 * The checks, as a pure function: every 201 is exactly one row, every row had a 201, no
 * duplicates, the burst lost nothing, the flood was cut exactly at the limit.
 */
export function reconcile(plan: LoadPlan, records: readonly SignupRecord[], rows: readonly StoredRow[]): string[] {
  const problems: string[] = []
  const stored = new Map<string, number>()
  for (const row of rows) stored.set(row.email.toLowerCase(), (stored.get(row.email.toLowerCase()) ?? 0) + 1)
  const accepted = new Set(records.filter((record) => record.outcome === 'accepted').map((record) => record.email.toLowerCase()))

  const duplicates = [...stored].filter(([, n]) => n > 1)
  if (duplicates.length) problems.push(`${duplicates.length} e-mails stored more than once, e.g. ${duplicates[0]?.[0]}`)
  const lost = [...accepted].filter((email) => !stored.has(email))
  if (lost.length) problems.push(`${lost.length} sign-ups answered 201 but not stored, e.g. ${lost[0]}`)
  // A request aborted at the time limit may still have committed: its row exists, its answer never came.
  const unanswered = new Set(records.filter((record) => record.status === 0).map((record) => record.email.toLowerCase()))
  const unexpected = [...stored.keys()].filter((email) => !accepted.has(email))
  const orphans = unexpected.filter((email) => !unanswered.has(email))
  if (orphans.length) problems.push(`${orphans.length} rows stored without a 201, e.g. ${orphans[0]}`)
  if (unexpected.length > orphans.length) {
    problems.push(`${unexpected.length - orphans.length} rows stored for requests that got no answer (aborted at the time limit)`)
  }
  if (rows.length !== accepted.size) problems.push(`${rows.length} rows for ${accepted.size} accepted sign-ups`)

  const phase = (name: Phase) => records.filter((record) => record.phase === name)
  const count = (list: readonly SignupRecord[], outcome: Outcome) => list.filter((record) => record.outcome === outcome).length
  const burst = phase('burst')
  const burstExpected = plan.clients * plan.perClient
  if (burst.length !== burstExpected) problems.push(`burst: ${burst.length} answers for ${burstExpected} sign-ups`)
  if (count(burst, 'accepted') !== burstExpected) {
    problems.push(
      `burst: ${count(burst, 'accepted')} of ${burstExpected} accepted (${count(burst, 'limited')} limited, ${count(burst, 'failed')} failed); every client stayed within its limit`,
    )
  }
  for (const name of ['flood', 'spoofed'] as const) {
    const list = phase(name)
    const sent = plan[name]
    const expected = Math.min(sent, plan.clientLimit)
    if (list.length !== sent) problems.push(`${name}: ${list.length} answers for ${sent} sign-ups`)
    if (count(list, 'accepted') !== expected || count(list, 'limited') !== sent - expected) {
      problems.push(`${name}: ${count(list, 'accepted')} accepted and ${count(list, 'limited')} limited, expected exactly ${expected} and ${sent - expected}`)
    }
  }
  const office = phase('office')
  if (office.length !== plan.office) problems.push(`office: ${office.length} answers for ${plan.office} sign-ups`)
  if (count(office, 'accepted') !== plan.office) {
    problems.push(`office: ${count(office, 'accepted')} of ${plan.office} colleagues behind one address accepted (${count(office, 'limited')} limited)`)
  }
  const failed = records.filter((record) => record.outcome === 'failed')
  if (failed.length) {
    const reasons = new Map<string, number>()
    for (const record of failed) reasons.set(record.reason ?? 'unknown', (reasons.get(record.reason ?? 'unknown') ?? 0) + 1)
    problems.push(`${failed.length} sign-ups failed: ${[...reasons].map(([reason, n]) => `${n}x ${reason}`).join('; ')}`)
  }
  return problems
}

/**
 * Runs the burst, then the flood, then reconciles. Rejects only when the run cannot be judged
 * (the database cannot be read back); a failed check is in `problems`.
 */
export async function runLoadCheck(
  target: LoadTarget,
  plan: LoadPlan,
  runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
): Promise<LoadReport> {
  assertLoopbackUrl(target.url)
  const invalid = validatePlan(plan)
  if (invalid.length) throw new Error(`Invalid load plan: ${invalid.join('; ')}`)
  const deadline = AbortSignal.timeout(plan.timeLimitMs)

  // A random block of simulated addresses, so reruns against one long-lived double within the
  // limit's window do not count against each other's clients.
  const base = Math.floor(Math.random() * (ADDRESS_SPACE - plan.clients - 3))
  const burstClients = Array.from({ length: plan.clients }, (_, i) => {
    const address = loopbackAddress(base + i)
    return { address, supabase: clientFor(target, address) }
  })
  // Round-robin over clients, so each client's sign-ups are spread over the burst as people's are.
  // Even clients use their company's domain, odd ones a free-mail domain: both paths are loaded.
  const burstJobs: Job[] = []
  for (let k = 0; k < plan.perClient; k++) {
    burstClients.forEach(({ address, supabase }, i) => {
      const domain = i % 2 === 0 ? `client${i}.${runId}.load.test` : 'gmail.com'
      burstJobs.push({ phase: 'burst', client: address, supabase, name: `Load ${i}.${k}`, email: `load.${runId}.c${i}.${k}@${domain}` })
    })
  }
  const floodAddress = loopbackAddress(base + plan.clients)
  const floodClient = clientFor(target, floodAddress)
  const floodJobs: Job[] = Array.from({ length: plan.flood }, (_, k) => ({
    phase: 'flood',
    client: floodAddress,
    supabase: floodClient,
    name: `Flood ${k}`,
    // A free-mail domain: the flood is to be cut by the per-client limit alone.
    email: `load.${runId}.flood.${k}@gmail.com`,
  }))
  // One machine writing a new address into every header a proxy might trust, every time.
  const spoofAddress = loopbackAddress(base + plan.clients + 1)
  const spoofJobs: Job[] = Array.from({ length: plan.spoofed }, (_, k) => {
    const forged = forgedAddress(k)
    return {
      phase: 'spoofed',
      client: spoofAddress,
      supabase: clientFor(target, spoofAddress, { 'X-Forwarded-For': forged, 'CF-Connecting-IP': forged, 'X-Real-IP': forged, Forwarded: `for=${forged}` }),
      name: `Spoof ${k}`,
      email: `load.${runId}.spoof.${k}@gmail.com`,
    }
  })
  // Colleagues behind one office NAT, one company domain (unusual for a domain, so flagged, not refused).
  const officeAddress = loopbackAddress(base + plan.clients + 2)
  const officeClient = clientFor(target, officeAddress)
  const officeJobs: Job[] = Array.from({ length: plan.office }, (_, k) => ({
    phase: 'office',
    client: officeAddress,
    supabase: officeClient,
    name: `Colleague ${k}`,
    email: `load.${runId}.colleague.${k}@office-${runId}.load.test`,
  }))

  const timed = async (jobs: readonly Job[], concurrency: number) => {
    const started = performance.now()
    const records = await runPool(jobs, concurrency, deadline)
    return { records, seconds: (performance.now() - started) / 1000 }
  }
  const burst = await timed(burstJobs, plan.concurrency)
  // All at once: simultaneous requests from one client must not slip past the limit.
  const flood = await timed(floodJobs, Math.max(1, plan.flood))
  const spoofed = await timed(spoofJobs, Math.max(1, plan.spoofed))
  const office = await timed(officeJobs, Math.max(1, plan.office))

  const rows = await fetchRunRows(target, runId, AbortSignal.timeout(Math.max(10_000, plan.timeLimitMs / 4)))
  const problems = reconcile(plan, [...burst.records, ...flood.records, ...spoofed.records, ...office.records], rows)
  if (deadline.aborted) problems.push(`time limit of ${plan.timeLimitMs / 1000} s reached`)
  return {
    runId,
    plan,
    burst: summarize(burst.records, burst.seconds),
    flood: summarize(flood.records, flood.seconds),
    spoofed: summarize(spoofed.records, spoofed.seconds),
    office: summarize(office.records, office.seconds),
    rows: rows.length,
    flagged: rows.filter((row) => row.flag).length,
    problems,
    ok: problems.length === 0,
  }
}

export function formatReport(report: LoadReport): string {
  const line = (name: string, s: PhaseSummary) =>
    `${name.padEnd(7)} ${String(s.sent).padStart(6)} sent  ${String(s.accepted).padStart(6)} accepted  ${String(s.limited).padStart(5)} limited  ${String(s.failed).padStart(4)} failed  ` +
    `${s.seconds.toFixed(1)} s  ${s.acceptedPerSecond.toFixed(1)} sign-ups/s  p50 ${s.p50.toFixed(1)} ms  p95 ${s.p95.toFixed(1)} ms  p99 ${s.p99.toFixed(1)} ms  max ${s.max.toFixed(1)} ms`
  const { plan } = report
  return [
    `Run ${report.runId}: burst ${plan.clients} clients x ${plan.perClient} sign-ups (concurrency ${plan.concurrency}); flood ${plan.flood} from one client; ` +
      `spoofed ${plan.spoofed} from one client, each forging a new address; office ${plan.office} colleagues behind one address; per-client limit ${plan.clientLimit}`,
    line('burst', report.burst),
    line('flood', report.flood),
    line('spoofed', report.spoofed),
    line('office', report.office),
    `Database: ${report.rows} rows for this run, ${report.flagged} flagged for the owner as a domain burst.`,
    report.ok
      ? `Reconciliation OK: every 201 is exactly one row, every row had a 201, no duplicates; the flood was cut at ${Math.min(plan.flood, plan.clientLimit)}, ` +
        `the spoofed flood at ${Math.min(plan.spoofed, plan.clientLimit)}, all ${plan.office} colleagues got in.`
      : `Reconciliation FAILED:\n${report.problems.map((problem) => `  - ${problem}`).join('\n')}`,
  ].join('\n')
}
