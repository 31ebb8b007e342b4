/**
 * What the scale bench decides, apart from measuring: percentiles, the growth from the smallest
 * list to the largest, and each figure against issue #51's targets (docs/engineers.md, "Bench").
 * Pure, so tests/unit/bench-db-targets.test.ts holds it; ./bench-db.ts only feeds it timings.
 */

export const TARGETS = {
  /** Each visitor's call, at every size. */
  visitorP50Ms: 10,
  visitorP95Ms: 25,
  /** Its p50 at the largest list over its p50 at the smallest. */
  visitorGrowth: 2,
  /** 50 confirmations started together, until the last answers. */
  concurrentConfirmationsMs: 1000,
  lineHeadMs: 100,
  invite10000Ms: 10_000,
  /** Inviting by answers (issue #52) is held to the invitation's target; reading how the line answers to the console's. */
  segmentInvite1000Ms: 10_000,
  answerCountsMs: 2000,
  /** The console's counts per rung of the rewards ladder (issue #68): an index, never the list. */
  rewardCountsMs: 100,
  /** The leaderboard page's read of the board (issue #69): an index range, never a sort of the list. */
  leaderboardRefreshMs: 100,
  consoleFirstByteMs: 2000,
  peakMemoryMb: 300,
  exportRowsPerSecond: 50_000,
  /** `npm run waitlist:import` of a 100,000-row file (issue #52), start to commit. */
  import100000Ms: 60_000,
  /**
   * The same with `--consented` (issue #66): every person also confirmed after the commit, through
   * the line, a webhook and the counts, a batch a call within the API's 8 s.
   */
  importConsented100000Ms: 180_000,
} as const

/** The founders' tool runs that import a list (./owner-tools.ts). */
export const IMPORT_TOOL = 'waitlist:import 100,000 rows'
export const CONSENTED_IMPORT_TOOL = 'waitlist:import --consented 100,000 rows'

/** The calls a visitor makes (directly, or by a click the site or the product's app passes on). */
export const VISITOR_CALLS = [
  'sign-up',
  'confirm',
  'own page',
  'request link',
  'export own data',
  'delete own data',
  'unsubscribe',
  'redeem invitation',
  // Issue #68: a friend's confirmation that earns the referrer a rung (the places rung: the line
  // moves, an e-mail, a Slack line and a webhook), and the own page of someone who earned one.
  'confirm earning a rung',
  'own page with rewards',
  // Issue #69: a research task answered from the own page.
  'complete a task',
] as const

/** The founders' calls, each with its own target. */
export const OWNER_CALLS = [
  'line head',
  'answer counts',
  'reward counts',
  'leaderboard refresh',
  'segment invite 1,000 (dry run)',
  'segment invite 1,000',
  'invite 10,000 (dry run)',
  'invite 10,000',
  'outbox claim (100,000 due)',
] as const

export const CONCURRENT_CALL = '50 concurrent confirmations'

export type CallName = (typeof VISITOR_CALLS)[number] | (typeof OWNER_CALLS)[number] | typeof CONCURRENT_CALL

/** Nearest-rank percentile (p in 0..100) of milliseconds; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[Math.min(rank, sorted.length) - 1] as number
}

export interface Verdict {
  /** What is held, e.g. "p95 <= 25 ms". */
  target: string
  pass: boolean
}

export interface CallRow {
  call: CallName
  size: number
  samples: number
  p50: number
  p95: number
  /** Calls that failed (their time is in the samples): the first error. */
  failures: number
  error?: string
  verdicts: Verdict[]
}

export interface CallGrowth {
  call: CallName
  from: number
  to: number
  /** p50 at `to` over p50 at `from`. */
  ratio: number
  verdict: Verdict | null
}

const isVisitorCall = (call: CallName) => (VISITOR_CALLS as readonly string[]).includes(call)

/** The targets of one call at one size, from its samples (ms). */
export function judgeCall(call: CallName, samples: readonly number[]): Verdict[] {
  const p50 = percentile(samples, 50)
  const p95 = percentile(samples, 95)
  const worst = samples.length ? Math.max(...samples) : Number.NaN
  const atMost = (label: string, value: number, limit: number): Verdict => ({ target: `${label} <= ${limit.toLocaleString('en-US')} ms`, pass: value <= limit })
  if (samples.length === 0) return [{ target: 'measured', pass: false }]
  if (isVisitorCall(call)) return [atMost('p50', p50, TARGETS.visitorP50Ms), atMost('p95', p95, TARGETS.visitorP95Ms)]
  if (call === 'line head') return [atMost('p95', p95, TARGETS.lineHeadMs)]
  if (call === 'invite 10,000' || call === 'invite 10,000 (dry run)') return [atMost('each', worst, TARGETS.invite10000Ms)]
  if (call === 'segment invite 1,000' || call === 'segment invite 1,000 (dry run)') return [atMost('each', worst, TARGETS.segmentInvite1000Ms)]
  if (call === 'answer counts') return [atMost('each', worst, TARGETS.answerCountsMs)]
  if (call === 'reward counts') return [atMost('p95', p95, TARGETS.rewardCountsMs)]
  if (call === 'leaderboard refresh') return [atMost('each', worst, TARGETS.leaderboardRefreshMs)]
  if (call === CONCURRENT_CALL) return [atMost('each round', worst, TARGETS.concurrentConfirmationsMs)]
  // The outbox claim has no target of its own in the issue: it is the dispatchers' cost per run.
  return []
}

export function callRow(call: CallName, size: number, samples: readonly number[], failures = 0, error?: string): CallRow {
  const verdicts = judgeCall(call, samples)
  if (failures > 0) verdicts.unshift({ target: 'every call succeeds', pass: false })
  return { call, size, samples: samples.length, p50: percentile(samples, 50), p95: percentile(samples, 95), failures, ...(error ? { error } : {}), verdicts }
}

/**
 * The growth of each call's p50 from the smallest list measured to the largest. Held to the
 * visitor target only when the run went from 10,000 (the baseline) to a larger list.
 */
export function growth(rows: readonly CallRow[]): CallGrowth[] {
  const sizes = [...new Set(rows.map((row) => row.size))].sort((a, b) => a - b)
  const from = sizes[0]
  const to = sizes.at(-1)
  if (from === undefined || to === undefined || from === to) return []
  const calls = [...new Set(rows.map((row) => row.call))]
  return calls.flatMap((call) => {
    const first = rows.find((row) => row.call === call && row.size === from)
    const last = rows.find((row) => row.call === call && row.size === to)
    if (!first || !last) return []
    const ratio = last.p50 / first.p50
    const held = isVisitorCall(call) && from === 10_000
    return [
      {
        call,
        from,
        to,
        ratio,
        verdict: held ? { target: `p50 <= ${TARGETS.visitorGrowth}x at ${from.toLocaleString('en-US')}`, pass: ratio <= TARGETS.visitorGrowth } : null,
      },
    ]
  })
}

/** A founders' tool run as a child process. */
export interface ToolRun {
  tool: string
  /** Wall time until it finished (or was stopped), ms. */
  ms: number
  /** Peak resident memory (VmHWM), MB; null when it could not be read. */
  peakMb: number | null
  /** Rows written per second (the export). */
  rowsPerSecond?: number
  /** Time to the console's first byte, ms. */
  firstByteMs?: number
  /** Stopped at its deadline, or failed: why. */
  problem?: string
}

export function judgeTool(run: ToolRun): Verdict[] {
  const verdicts: Verdict[] = []
  if (run.problem) verdicts.push({ target: 'finishes', pass: false })
  if (run.firstByteMs !== undefined || run.tool.startsWith('console')) {
    verdicts.push({
      target: `first byte <= ${TARGETS.consoleFirstByteMs.toLocaleString('en-US')} ms`,
      pass: run.firstByteMs !== undefined && run.firstByteMs <= TARGETS.consoleFirstByteMs,
    })
  }
  if (run.tool !== 'waitlist:list') {
    verdicts.push({ target: `peak < ${TARGETS.peakMemoryMb} MB`, pass: run.peakMb !== null && run.peakMb < TARGETS.peakMemoryMb })
  }
  const importTarget = run.tool === IMPORT_TOOL ? TARGETS.import100000Ms : run.tool === CONSENTED_IMPORT_TOOL ? TARGETS.importConsented100000Ms : null
  if (importTarget !== null) verdicts.push({ target: `<= ${importTarget.toLocaleString('en-US')} ms`, pass: !run.problem && run.ms <= importTarget })
  if (run.tool === 'waitlist:export') {
    verdicts.push({
      target: `>= ${TARGETS.exportRowsPerSecond.toLocaleString('en-US')} rows/s`,
      pass: !run.problem && (run.rowsPerSecond ?? 0) >= TARGETS.exportRowsPerSecond,
    })
  }
  return verdicts
}

/** E-mails per second from the dispatchers, and whether a launch hour's 10,000 fit in an hour. */
export interface MailRun {
  dispatchers: number
  /** The confirmation e-mails queued for the stage. */
  queued: number
  /** Every e-mail the dispatchers sent meanwhile (reminders the runs' purge queued included). */
  sent: number
  /** Queued messages maildev received more than once (by Message-ID), or never. */
  duplicates: number
  missing: number
  ms: number
}

export function judgeMail(run: MailRun): { perSecond: number; hourFor10000Ms: number; verdicts: Verdict[] } {
  const perSecond = run.ms > 0 ? (run.sent / run.ms) * 1000 : 0
  const hourFor10000Ms = perSecond > 0 ? (10_000 / perSecond) * 1000 : Number.POSITIVE_INFINITY
  return {
    perSecond,
    hourFor10000Ms,
    verdicts: [
      { target: '10,000 within an hour', pass: hourFor10000Ms <= 3_600_000 },
      { target: 'each sent once', pass: run.queued > 0 && run.duplicates === 0 && run.missing === 0 },
    ],
  }
}
