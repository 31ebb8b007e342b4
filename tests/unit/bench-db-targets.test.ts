/**
 * The scale bench's verdicts (tools/bench/db/targets.ts): percentiles, issue #51's targets per
 * call, the growth from 10,000 entries, the founders' tools and the e-mail rate. The bench itself
 * is not run by the tests; what it decides from its figures is.
 */
import { describe, expect, it } from 'vitest'
import { callRow, CONCURRENT_CALL, CONSENTED_IMPORT_TOOL, growth, IMPORT_TOOL, judgeCall, judgeMail, judgeTool, percentile } from '@/tools/bench/db/targets'

const passes = (verdicts: { pass: boolean }[]) => verdicts.map((v) => v.pass)
const times = (count: number, ms: number) => Array.from({ length: count }, () => ms)

describe('percentile', () => {
  it('is the nearest rank, whatever the order', () => {
    const samples = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6]
    expect(percentile(samples, 50)).toBe(5)
    expect(percentile(samples, 95)).toBe(10)
    expect(percentile(samples, 0)).toBe(1)
    expect(percentile([], 50)).toBeNaN()
  })
  it('puts p95 of 100 samples at the 95th', () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1)
    expect(percentile(samples, 95)).toBe(95)
  })
})

describe('a visitor call', () => {
  it('passes with p50 <= 10 ms and p95 <= 25 ms, and misses either one past it', () => {
    expect(passes(judgeCall('confirm', [...times(94, 10), ...times(6, 25)]))).toEqual([true, true])
    expect(passes(judgeCall('confirm', [...times(94, 10.1), ...times(6, 1)]))).toEqual([false, true])
    expect(passes(judgeCall('own page', [...times(90, 2), ...times(10, 26)]))).toEqual([true, false])
  })
  it('misses when a call failed, even if the times pass', () => {
    expect(callRow('sign-up', 10_000, times(10, 1), 1, 'statement timeout').verdicts[0]).toEqual({ target: 'every call succeeds', pass: false })
    expect(passes(callRow('sign-up', 10_000, times(10, 1)).verdicts)).toEqual([true, true])
  })
  it('misses with no samples at all', () => {
    expect(passes(judgeCall('unsubscribe', []))).toEqual([false])
  })
})

describe("the founders' calls", () => {
  it('holds the line head to 100 ms, each invitation of 10,000 to 10 s and each round of 50 confirmations to 1 s', () => {
    expect(passes(judgeCall('line head', times(20, 100)))).toEqual([true])
    expect(passes(judgeCall('line head', [...times(18, 1), 101, 101]))).toEqual([false])
    expect(passes(judgeCall('invite 10,000', [10_000]))).toEqual([true])
    expect(passes(judgeCall('invite 10,000 (dry run)', [10_001]))).toEqual([false])
    expect(passes(judgeCall(CONCURRENT_CALL, [900, 1001, 950]))).toEqual([false])
    expect(passes(judgeCall(CONCURRENT_CALL, [900, 1000]))).toEqual([true])
    expect(judgeCall('outbox claim (100,000 due)', [500])).toEqual([])
  })

  it('holds an invitation of 1,000 by answers to 10 s and how the line answers to the console’s 2 s', () => {
    expect(passes(judgeCall('segment invite 1,000', [10_000]))).toEqual([true])
    expect(passes(judgeCall('segment invite 1,000 (dry run)', [10_001]))).toEqual([false])
    expect(passes(judgeCall('answer counts', [2000]))).toEqual([true])
    expect(passes(judgeCall('answer counts', [2001]))).toEqual([false])
  })
})

describe('growth', () => {
  it('holds each visitor call to 2x its p50 at 10,000, and only reports the others', () => {
    const rows = [
      callRow('confirm', 10_000, [4]),
      callRow('confirm', 100_000, [5]),
      callRow('confirm', 1_000_000, [8]),
      callRow('own page', 10_000, [4]),
      callRow('own page', 1_000_000, [8.1]),
      callRow('line head', 10_000, [1]),
      callRow('line head', 1_000_000, [50]),
    ]
    expect(growth(rows).map((g) => ({ call: g.call, ratio: g.ratio, pass: g.verdict?.pass ?? null }))).toEqual([
      { call: 'confirm', ratio: 2, pass: true },
      { call: 'own page', ratio: 8.1 / 4, pass: false },
      { call: 'line head', ratio: 50, pass: null },
    ])
  })
  it('judges nothing when the run did not start at 10,000, and says nothing for one size', () => {
    const rows = [callRow('confirm', 100_000, [1]), callRow('confirm', 1_000_000, [9])]
    expect(growth(rows)).toEqual([{ call: 'confirm', from: 100_000, to: 1_000_000, ratio: 9, verdict: null }])
    expect(growth([callRow('confirm', 10_000, [1])])).toEqual([])
  })
})

describe("the founders' tools", () => {
  it('holds the console to its first byte and memory, and the export to its rate and memory', () => {
    expect(passes(judgeTool({ tool: 'console (first page)', ms: 3000, peakMb: 299, firstByteMs: 2000 }))).toEqual([true, true])
    expect(passes(judgeTool({ tool: 'console (first page)', ms: 3000, peakMb: 300 }))).toEqual([false, false])
    expect(passes(judgeTool({ tool: 'waitlist:export', ms: 20_000, peakMb: 120, rowsPerSecond: 50_000 }))).toEqual([true, true])
    expect(passes(judgeTool({ tool: 'waitlist:export', ms: 20_000, peakMb: 120, rowsPerSecond: 60_000, problem: 'stopped at its 240 s deadline' }))).toEqual([
      false,
      true,
      false,
    ])
    expect(passes(judgeTool({ tool: 'waitlist:stats', ms: 1000, peakMb: null }))).toEqual([false])
    expect(judgeTool({ tool: 'waitlist:list', ms: 1000, peakMb: 900 })).toEqual([])
  })

  it('holds the import of 100,000 rows to under a minute, finished', () => {
    expect(passes(judgeTool({ tool: IMPORT_TOOL, ms: 60_000, peakMb: 200 }))).toEqual([true, true])
    expect(passes(judgeTool({ tool: IMPORT_TOOL, ms: 60_001, peakMb: 200 }))).toEqual([true, false])
    expect(passes(judgeTool({ tool: IMPORT_TOOL, ms: 30_000, peakMb: 200, problem: 'exit 1: Nothing imported' }))).toEqual([false, true, false])
    expect(passes(judgeTool({ tool: CONSENTED_IMPORT_TOOL, ms: 180_000, peakMb: 200 }))).toEqual([true, true])
    expect(passes(judgeTool({ tool: CONSENTED_IMPORT_TOOL, ms: 180_001, peakMb: 200 }))).toEqual([true, false])
  })
})

describe('e-mails per second', () => {
  it('says whether 10,000 fit in an hour and whether each queued message arrived once', () => {
    const fast = judgeMail({ dispatchers: 4, queued: 1000, sent: 1010, duplicates: 0, missing: 0, ms: 100_000 })
    expect(fast.perSecond).toBeCloseTo(10.1)
    expect(passes(fast.verdicts)).toEqual([true, true])
    const slow = judgeMail({ dispatchers: 4, queued: 1000, sent: 1000, duplicates: 1, missing: 0, ms: 400_000 })
    expect(slow.hourFor10000Ms).toBe(4_000_000)
    expect(passes(slow.verdicts)).toEqual([false, false])
    expect(passes(judgeMail({ dispatchers: 4, queued: 0, sent: 0, duplicates: 0, missing: 0, ms: 0 }).verdicts)).toEqual([false, false])
  })
})
