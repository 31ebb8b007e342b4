import type { FirstLoadJs, HtmlParts } from './page-weight'
import type { CategoryId, LighthouseSummary } from './lighthouse'

/**
 * The quality budget: what each route may cost above a bare Next.js page built with the same
 * versions, and the Lighthouse bar. The benchmark reports a pass or a miss with its gap, and
 * exits non-zero when any target is missed.
 */

/** First-load JS allowed per route, as a multiple of the floor's `/`; a language's home is held to English's. The 404 has no JS budget (its ratio is reported). */
export const JS_BUDGET: Readonly<Record<string, number>> = { '/': 1.05, '/about': 1.05, '/waitlist': 1.1, '/waitlist/confirm': 1.1, '/privacy': 1.05, '/careers': 1.05, '/blog': 1.05, '/blog/slack-threads-and-webhooks': 1.05, '/de': 1.05, '/search?q=slack': 1.05 }

/** Categories that must score 100 on every route. Performance is held to the floor's own score instead. */
export const FULL_MARKS: readonly CategoryId[] = ['accessibility', 'best-practices', 'seo']

/**
 * LCP allowed per route under applied throttling, as a multiple of the floor's ("first words on
 * screen as fast as an empty page"). Applied, not simulated: on loopback the simulated estimate
 * races the page's own scripts and splits between two values for the floor too (docs/bench.md).
 */
export const LCP_BUDGET = 1.2

/**
 * Audits a 404 fails by definition, and the bare Next.js 404 with it: it answers 404
 * (`http-status-code`, and the browser logs the failed document load: `errors-in-console`) and is
 * kept out of search engines (`is-crawlable`). On the 404 a category at 100 less only these, each
 * also failed by the floor's 404, counts as met.
 */
export const NOT_FOUND_BY_DEFINITION: ReadonlySet<string> = new Set(['http-status-code', 'errors-in-console', 'is-crawlable'])

/**
 * Routes kept out of search engines on purpose, and the SEO audits that follow from it: the page a
 * confirmation link opens is personal (`noindex`, so `is-crawlable` fails) and needs no search
 * snippet (`meta-description`). A category at 100 less only these counts as met there.
 */
export const NOINDEX_BY_DESIGN: Readonly<Record<string, ReadonlySet<string>>> = {
  '/waitlist/confirm': new Set(['is-crawlable', 'meta-description']),
  // A page of results for whatever anyone typed is nothing for a search engine to keep.
  '/search?q=slack': new Set(['is-crawlable']),
}

/** A page measured as a variant of a running experiment: asked for with these cookies, so the proxy rewrites it to the variant's page. */
export type MeasuredVariant = { experiment: string; key: string; cookie: string }

/** One page as measured: `applied` and `lighthouse` (simulated throttling) are the same page's runs under Lighthouse's two throttling methods. */
export type Measured = {
  path: string
  /** Set when the page was measured as a variant: it is then reported apart from the page at its path (control). */
  variant?: MeasuredVariant
  status: number
  js: FirstLoadJs
  cssGzip: number
  inlineCssGzip: number
  htmlGzip: number
  parts: HtmlParts
  applied: LighthouseSummary
  lighthouse: LighthouseSummary
}

export type TargetResult = { route: string; target: string; measured: string; limit: string; pass: boolean; gap: string }

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
const points = (n: number) => `${n} point${n === 1 ? '' : 's'}`
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const LABEL: Record<CategoryId, string> = { performance: 'Performance', accessibility: 'Accessibility', 'best-practices': 'Best practices', seo: 'SEO' }

/** How a page is named in the report and its targets: its path, and the variant when it is one (`/ (variant b)`). */
export const routeLabel = (page: Pick<Measured, 'path' | 'variant'>): string => (page.variant ? `${page.path} (variant ${page.variant.key})` : page.path)

/** A variant is held to its page's targets (by path: the same budgets, the same floor). */
export function evaluateTargets(site: Measured, floor: Measured): TargetResult[] {
  const results: TargetResult[] = []
  const route = routeLabel(site)
  const budget = JS_BUDGET[site.path]
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
    const failing = site.lighthouse.failingAudits.filter((audit) => audit.category === id)
    const causes = failing.map((audit) => `\`${audit.id}\`${floorFails.has(audit.id) ? ' (floor too)' : ''}`)
    const notFound = site.status === 404 && floor.status === 404
    const onlyByDefinition = notFound && failing.length > 0 && failing.every((audit) => NOT_FOUND_BY_DEFINITION.has(audit.id) && floorFails.has(audit.id))
    const noindex = NOINDEX_BY_DESIGN[site.path]
    const onlyByNoindex = noindex !== undefined && failing.length > 0 && failing.every((audit) => noindex.has(audit.id))
    results.push({
      route,
      target: notFound ? `${LABEL[id]} 100, but for what every 404 fails` : noindex && id === 'seo' ? `${LABEL[id]} 100, but for what a noindex page fails` : `${LABEL[id]} 100`,
      measured: String(score),
      limit: '100',
      pass: score >= 100 || onlyByDefinition || onlyByNoindex,
      gap:
        score >= 100
          ? '—'
          : `${points(100 - score)} short${causes.length > 0 ? `: ${causes.join(', ')}` : ''}${onlyByDefinition ? ', as every 404' : ''}${onlyByNoindex ? ', kept out of search engines by design' : ''}`,
    })
  }
  // Speed under applied throttling: the runs are stable there (the simulated figures are reported, not held to a target).
  const applied = site.applied
  const lcp = applied.lcpMs
  const lcpLimit = LCP_BUDGET * floor.applied.lcpMs
  results.push({
    route,
    target: `LCP ≤ ${LCP_BUDGET.toFixed(1)} × floor (applied throttling)`,
    measured: `${(lcp / floor.applied.lcpMs).toFixed(2)} × (${seconds(lcp)}; runs ${applied.lcpRuns.map((run) => seconds(run)).join(', ')})`,
    limit: `${seconds(lcpLimit)} (floor ${seconds(floor.applied.lcpMs)})`,
    pass: lcp <= lcpLimit,
    gap: lcp <= lcpLimit ? `${seconds(lcpLimit - lcp)} to spare` : `${seconds(lcp - lcpLimit)} over`,
  })
  const perf = applied.scores.performance
  const floorPerf = floor.applied.scores.performance
  results.push({
    route,
    target: 'Performance ≥ floor (applied throttling)',
    measured: `${perf} (runs ${applied.performanceRuns.join(', ')})`,
    limit: `${floorPerf} (floor ${floor.path}, runs ${floor.applied.performanceRuns.join(', ')})`,
    pass: perf >= floorPerf,
    gap:
      perf >= floorPerf
        ? perf > floorPerf
          ? `${points(perf - floorPerf)} above`
          : '—'
        : `${points(floorPerf - perf)} below the floor (LCP ${seconds(applied.lcpMs)} against ${seconds(floor.applied.lcpMs)}, TBT ${Math.round(applied.tbtMs)} against ${Math.round(floor.applied.tbtMs)} ms)`,
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

/** Every route's targets against its floor page; a variant's, then its comparison with its page measured as control (when that was measured too). */
export function evaluateRoutes(routes: readonly { site: Measured; floor: Measured }[]): TargetResult[] {
  return routes.flatMap(({ site, floor }) => {
    const control = controlOf(routes, site)
    return [...evaluateTargets(site, floor), ...(control ? evaluateVariant(site, control) : [])]
  })
}

/** For a variant, its page measured as control in the same run (if it was). */
export function controlOf(routes: readonly { site: Measured }[], variant: Measured): Measured | undefined {
  return variant.variant && routes.find(({ site }) => site.path === variant.path && !site.variant)?.site
}

/**
 * What a variant adds to its page's targets: an experiment adds no client JavaScript, so the
 * variant page loads exactly control's scripts, byte for byte. (That its HTML is the variant's the
 * bench checks as it measures, and stops if not: tools/bench/bench-content.ts.)
 */
export function evaluateVariant(variant: Measured, control: Measured): TargetResult[] {
  const onlyVariant = variant.js.urls.filter((url) => !control.js.urls.includes(url))
  const onlyControl = control.js.urls.filter((url) => !variant.js.urls.includes(url))
  const bytes = variant.js.jsGzip - control.js.jsGzip
  const same = onlyVariant.length === 0 && onlyControl.length === 0 && bytes === 0
  const name = (url: string) => new URL(url).pathname
  return [
    {
      route: routeLabel(variant),
      target: `first-load JS = ${control.path}'s (same scripts)`,
      measured: `${kB(variant.js.jsGzip)}, ${variant.js.scripts} scripts`,
      limit: `${kB(control.js.jsGzip)}, ${control.js.scripts} scripts`,
      pass: same,
      gap: same
        ? '—'
        : [
            onlyVariant.length > 0 ? `only the variant loads ${onlyVariant.map(name).join(', ')}` : '',
            onlyControl.length > 0 ? `only control loads ${onlyControl.map(name).join(', ')}` : '',
            bytes !== 0 ? `${Math.abs(bytes)} bytes ${bytes > 0 ? 'more' : 'fewer'} than control` : '',
          ]
            .filter(Boolean)
            .join('; '),
    },
  ]
}
