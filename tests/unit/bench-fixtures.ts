import type { LighthouseSummary } from '../../tools/bench/lighthouse'
import type { HtmlParts } from '../../tools/bench/page-weight'
import type { Measured, MeasuredVariant } from '../../tools/bench/quality-budget'

type Overrides = {
  path?: string
  status?: number
  jsGzip?: number
  /** The first-load scripts' URLs (five of the floor's unless told). */
  scripts?: string[]
  variant?: MeasuredVariant
  htmlGzip?: number
  parts?: Partial<HtmlParts>
  scores?: Partial<LighthouseSummary['scores']>
  /** The simulated runs. */
  lighthouse?: Partial<LighthouseSummary>
  /** The applied runs (as the simulated ones unless told otherwise). */
  applied?: Partial<LighthouseSummary>
}

/** A measured page that meets every target unless told otherwise. */
export function measured({
  path = '/',
  status = 200,
  jsGzip = 100_000,
  scripts = SCRIPTS,
  variant,
  htmlGzip = 0,
  parts = {},
  scores = {},
  lighthouse = {},
  applied = {},
}: Overrides = {}): Measured {
  const simulated = summary(path, scores, lighthouse)
  return {
    path,
    ...(variant ? { variant } : {}),
    status,
    js: { scripts: scripts.length, urls: scripts, jsGzip, htmlOnly: [], browserOnly: [] },
    cssGzip: 0,
    inlineCssGzip: 0,
    htmlGzip,
    parts: { markupGzip: 0, cssGzip: 0, flightGzip: 0, beforeBodyGzip: 0, beforeH1Gzip: null, ...parts },
    applied: { ...simulated, ...applied },
    lighthouse: simulated,
  }
}

const SCRIPTS = ['webpack', 'main', 'framework', 'app', 'page'].map((name) => `http://localhost/_next/static/chunks/${name}.js`)

function summary(path: string, scores: Partial<LighthouseSummary['scores']>, lighthouse: Partial<LighthouseSummary>): LighthouseSummary {
  return {
    url: `http://localhost${path}`,
    runs: 3,
    scores: { performance: 100, accessibility: 100, 'best-practices': 100, seo: 100, ...scores },
    performanceRuns: [100, 100, 100],
    fcpMs: 700,
    lcpMs: 700,
    lcpRuns: [700, 700, 700],
    cls: 0,
    clsMax: 0,
    tbtMs: 80,
    requestsBeforeLoad: 6,
    requestsTotal: 7,
    failingAudits: [],
    otherOrigins: [],
    analyticsCalls: [],
    scriptsBeforeLoad: [],
    warnings: [],
    benchmarkIndex: 2000,
    benchmarkIndexRuns: [2000],
    lcpElements: [],
    ...lighthouse,
  }
}
