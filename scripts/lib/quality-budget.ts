import type { FirstLoadJs } from './page-weight'
import type { CategoryId, LighthouseSummary } from './lighthouse'

/**
 * The quality budget (issue "Quality budget", part 1): what each route may cost above a bare
 * Next.js page built with the same versions, and the Lighthouse bar. The benchmark reports
 * a pass or a miss with its gap; it asserts nothing.
 */

/** First-load JS allowed per route, as a multiple of the floor's `/`. The 404 has no JS budget (its ratio is reported). */
export const JS_BUDGET: Readonly<Record<string, number>> = { '/': 1.05, '/about': 1.05, '/waitlist': 1.1 }

/** Categories that must score 100 on every route. Performance is held to the floor's own score instead. */
export const FULL_MARKS: readonly CategoryId[] = ['accessibility', 'best-practices', 'seo']

export type Measured = { path: string; status: number; js: FirstLoadJs; cssGzip: number; htmlGzip: number; lighthouse: LighthouseSummary }

export type TargetResult = { route: string; target: string; measured: string; limit: string; pass: boolean; gap: string }

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
const points = (n: number) => `${n} point${n === 1 ? '' : 's'}`
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const LABEL: Record<CategoryId, string> = { performance: 'Performance', accessibility: 'Accessibility', 'best-practices': 'Best practices', seo: 'SEO' }

export function evaluateTargets(site: Measured, floor: Measured): TargetResult[] {
  const results: TargetResult[] = []
  const route = site.path
  const budget = JS_BUDGET[route]
  if (budget !== undefined) {
    const ratio = site.js.jsGzip / floor.js.jsGzip
    const limit = budget * floor.js.jsGzip
    const over = site.js.jsGzip - limit
    results.push({
      route,
      target: `first-load JS ≤ ${budget.toFixed(2)} × floor`,
      measured: `${ratio.toFixed(3)} × (${kB(site.js.jsGzip)})`,
      limit: `${kB(limit)}`,
      pass: over <= 0,
      gap: over <= 0 ? `${kB(-over)} to spare` : `${kB(over)} over (${((ratio / budget - 1) * 100).toFixed(1)} % above the limit)`,
    })
  }
  const cls = site.lighthouse.cls
  results.push({
    route,
    target: 'CLS 0',
    measured: `${cls.toFixed(3)} (max of runs ${site.lighthouse.clsMax.toFixed(3)})`,
    limit: '0',
    pass: cls === 0,
    gap: cls === 0 ? '—' : `${cls.toFixed(3)} over`,
  })
  for (const id of FULL_MARKS) {
    const score = site.lighthouse.scores[id]
    // Name the audits behind the gap, and those the bare Next.js page fails alike (a 404 must
    // answer 404 and is kept out of search engines, so two SEO audits fail there by design).
    const floorFails = new Set(floor.lighthouse.failingAudits.filter((audit) => audit.category === id).map((audit) => audit.id))
    const causes = site.lighthouse.failingAudits
      .filter((audit) => audit.category === id)
      .map((audit) => `\`${audit.id}\`${floorFails.has(audit.id) ? ' (floor too)' : ''}`)
    results.push({
      route,
      target: `${LABEL[id]} 100`,
      measured: String(score),
      limit: '100',
      pass: score >= 100,
      gap: score >= 100 ? '—' : `${points(100 - score)} short${causes.length > 0 ? `: ${causes.join(', ')}` : ''}`,
    })
  }
  const perf = site.lighthouse.scores.performance
  const floorPerf = floor.lighthouse.scores.performance
  results.push({
    route,
    target: 'Performance ≥ floor',
    measured: `${perf} (runs ${site.lighthouse.performanceRuns.join(', ')})`,
    limit: `${floorPerf} (floor ${floor.path}, runs ${floor.lighthouse.performanceRuns.join(', ')})`,
    pass: perf >= floorPerf,
    gap:
      perf >= floorPerf
        ? perf > floorPerf
          ? `${points(perf - floorPerf)} above`
          : '—'
        : `${points(floorPerf - perf)} below the floor (LCP ${seconds(site.lighthouse.lcpMs)} against ${seconds(floor.lighthouse.lcpMs)}, TBT ${Math.round(site.lighthouse.tbtMs)} against ${Math.round(floor.lighthouse.tbtMs)} ms)`,
  })
  const others = site.lighthouse.otherOrigins
  results.push({
    route,
    target: 'no third-party request before consent',
    measured: others.length === 0 ? 'none' : `${others.length}`,
    limit: 'none',
    pass: others.length === 0,
    gap: others.length === 0 ? '—' : others.map((url) => new URL(url).origin).filter((origin, i, all) => all.indexOf(origin) === i).join(', '),
  })
  return results
}
