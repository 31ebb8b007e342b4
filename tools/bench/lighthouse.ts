import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { type Result } from 'lighthouse'
import { CHROMIUM_ARGS } from '../local/chromium'

/**
 * Lighthouse, run programmatically against Debian's Chromium, with Lighthouse's mobile defaults
 * (Moto G Power emulation, 412×823; slow 4G, 4× CPU slowdown), in either of its two ways of
 * throttling:
 * - `applied` (Lighthouse's `devtools` method): Chromium itself slows the network (562.5 ms
 *   added to each request, 1.47 Mbit/s down) and the CPU while the page loads, so the browser paints as
 *   the throttled bytes arrive and the metrics are observed. Stable from run to run.
 * - `simulated` (the default, PageSpeed Insights' "mobile scores"): the page loads unthrottled
 *   and Lighthouse estimates slow-4G timings from the requests it saw. On loopback the estimate
 *   races the page's own scripts (docs/bench.md), so runs split between two values.
 * Everything here works offline against localhost.
 */

/** Chromium's flags for Lighthouse's runs: the quiet offline ones (tools/local/chromium.ts), headless. */
export const CHROMIUM_FLAGS = ['--headless=new', ...CHROMIUM_ARGS]

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
export type CategoryId = (typeof CATEGORIES)[number]

/** One request from Lighthouse's network log (its `network-requests` audit). */
export type NetworkRequest = {
  url: string
  resourceType: string
  /** ms after navigation start, as observed (simulated throttling does not slow the real load). */
  startMs: number
  transferSize: number
  statusCode: number
}

export const THROTTLING = ['applied', 'simulated'] as const
export type Throttling = (typeof THROTTLING)[number]
const THROTTLING_METHOD: Record<Throttling, 'devtools' | 'simulate'> = { applied: 'devtools', simulated: 'simulate' }

export type FailingAudit = { id: string; title: string; category: CategoryId; score: number | null; displayValue?: string }

export type LighthouseRun = {
  url: string
  /** 0–100 per category. */
  scores: Record<CategoryId, number>
  /** FCP, LCP and TBT as the run's throttling gives them (observed when applied, estimated when simulated); CLS is observed either way. */
  fcpMs: number
  lcpMs: number
  cls: number
  tbtMs: number
  /** The observed `load` event, ms after navigation start: our line for "before interaction". */
  observedLoadMs: number
  requests: NetworkRequest[]
  failingAudits: FailingAudit[]
  warnings: string[]
  /** Lighthouse's CPU benchmark of this machine at the time of the run (higher is faster); explains noisy runs. */
  benchmarkIndex: number
  /** The element Lighthouse took as the largest contentful paint (its label or selector), if it names one. */
  lcpElement?: string
}

/**
 * Lighthouse marks an audit green from 0.9 (its report's pass threshold); binary audits score
 * 0 or 1. Informative, manual and not-applicable audits carry no score and never count.
 */
const PASS = 0.9
const SCORED_MODES = new Set(['binary', 'numeric', 'metricSavings', 'error'])

/**
 * How a run asks for its page: `headers` go with every request of the load (Lighthouse's
 * `extraHeaders`: a variant page's cookies), and `checkDocument` sees the document as the
 * browser received it and throws when it is not the page meant.
 */
export type RunRequest = { headers?: Record<string, string>; checkDocument?: (html: string) => void }

/** One Lighthouse run in a fresh Chromium (fresh profile: no cache, no stored consent). */
export async function runLighthouse(url: string, chromePath: string, throttling: Throttling, request: RunRequest = {}): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' })
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      throttlingMethod: THROTTLING_METHOD[throttling],
      // The 404 route answers 404 on purpose; without this Lighthouse refuses to audit it.
      ignoreStatusCode: true,
      ...(request.headers ? { extraHeaders: request.headers } : {}),
    })
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`)
    if (request.checkDocument) {
      // Gathered for the best-practices category's charset audit.
      const document: unknown = result.artifacts.MainDocumentContent
      if (typeof document !== 'string') throw new Error(`Lighthouse kept no copy of the document it loaded from ${url}, so the page served cannot be checked`)
      request.checkDocument(document)
    }
    return readResult(url, result.lhr)
  } finally {
    chrome.kill()
  }
}

function readResult(url: string, lhr: Result): LighthouseRun {
  if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`)
  const scores = {} as Record<CategoryId, number>
  for (const id of CATEGORIES) {
    const score = lhr.categories[id]?.score
    if (typeof score !== 'number') throw new Error(`Lighthouse gave no ${id} score for ${url}`)
    scores[id] = Math.round(score * 100)
  }
  const audit = (id: string) => {
    const found = lhr.audits[id]
    if (!found) throw new Error(`Lighthouse result for ${url} has no "${id}" audit`)
    return found
  }
  const numeric = (id: string) => {
    const value = audit(id).numericValue
    if (typeof value !== 'number') throw new Error(`Lighthouse audit "${id}" has no value for ${url}`)
    return value
  }
  // The `metrics` audit keeps the observed (unthrottled) timeline beside the simulated one.
  const observed = firstItem(audit('metrics').details)
  const observedLoadMs = observed?.observedLoad
  if (typeof observedLoadMs !== 'number') throw new Error(`Lighthouse recorded no load event for ${url}`)

  const failingAudits: FailingAudit[] = []
  for (const id of CATEGORIES) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const result = lhr.audits[ref.id]
      if (!result || !SCORED_MODES.has(result.scoreDisplayMode)) continue
      if (result.score !== null && result.score >= PASS) continue
      failingAudits.push({
        id: ref.id,
        title: result.title,
        category: id,
        score: result.score,
        ...(result.displayValue ? { displayValue: result.displayValue } : {}),
      })
    }
  }

  return {
    url,
    scores,
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    cls: numeric('cumulative-layout-shift'),
    tbtMs: numeric('total-blocking-time'),
    observedLoadMs,
    requests: tableItems(audit('network-requests').details).flatMap((item) => {
      const { url: requestUrl, resourceType, networkRequestTime, transferSize, statusCode } = item
      if (typeof requestUrl !== 'string' || typeof networkRequestTime !== 'number') return []
      return [
        {
          url: requestUrl,
          resourceType: typeof resourceType === 'string' ? resourceType : 'Other',
          startMs: networkRequestTime,
          transferSize: typeof transferSize === 'number' ? transferSize : 0,
          statusCode: typeof statusCode === 'number' ? statusCode : 0,
        },
      ]
    }),
    failingAudits,
    warnings: lhr.runWarnings.map(String),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    ...lcpElementOf(lhr),
  }
}

/** Lighthouse 13 names the LCP element in its LCP insights, as a `node` item somewhere in their details. */
function lcpElementOf(lhr: Result): { lcpElement?: string } {
  for (const id of ['lcp-breakdown-insight', 'lcp-discovery-insight']) {
    const node = findNode(lhr.audits[id]?.details)
    if (node) return { lcpElement: node }
  }
  return {}
}

function findNode(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findNode(item)
      if (found) return found
    }
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const record = value as Record<string, unknown>
  if (record.type === 'node') {
    const label = [record.selector, record.nodeLabel].filter((part): part is string => typeof part === 'string' && part.length > 0)
    if (label.length > 0) return label.map((part) => part.replace(/\s+/g, ' ').slice(0, 80)).join(': ')
  }
  for (const child of Object.values(record)) {
    const found = findNode(child)
    if (found) return found
  }
  return undefined
}

// Audit details are a union of many shapes; these read the two we need without `any`.
type Details = Result['audits'][string]['details']

function tableItems(details: Details): Record<string, unknown>[] {
  if (!details || details.type !== 'table') return []
  return details.items as Record<string, unknown>[]
}

function firstItem(details: Details): Record<string, unknown> | undefined {
  if (!details || details.type !== 'debugdata') return undefined
  const items: unknown = details.items
  return Array.isArray(items) && typeof items[0] === 'object' && items[0] !== null ? (items[0] as Record<string, unknown>) : undefined
}

/** Requests that started at or before the observed `load` event. */
export const requestsBeforeLoad = (run: LighthouseRun) => run.requests.filter((request) => request.startMs <= run.observedLoadMs)

/**
 * Requests to any origin other than the site's own (scheme, host and port: the local
 * Supabase at 127.0.0.1:54339 is another origin, as supabase.co would be). `data:` and
 * `blob:` URLs never leave the browser and are not requests to anyone.
 */
export function otherOriginRequests(run: LighthouseRun, siteOrigin: string): NetworkRequest[] {
  return run.requests.filter((request) => {
    if (!/^(https?|wss?):/.test(request.url)) return false
    return new URL(request.url).origin !== siteOrigin
  })
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export type LighthouseSummary = {
  url: string
  runs: number
  /** Median of the runs per category; `performanceRuns` keeps each run's score. */
  scores: Record<CategoryId, number>
  performanceRuns: number[]
  fcpMs: number
  lcpMs: number
  /** Each run's simulated LCP, to tell a steady page from one that races its own scripts. */
  lcpRuns: number[]
  cls: number
  clsMax: number
  tbtMs: number
  /** Median count of requests started before the load event, and of all requests until Lighthouse's quiet window ended. */
  requestsBeforeLoad: number
  requestsTotal: number
  /** Every failing audit seen in any run, with how many runs it failed in. */
  failingAudits: (FailingAudit & { failedRuns: number })[]
  /** Every request to another origin in any run (all runs are fresh loads without a consent choice). */
  otherOrigins: string[]
  /** Same-origin analytics calls (the PostHog proxy) in any run: consent would be broken even without a third party. */
  analyticsCalls: string[]
  /** Script URLs requested before `load` in any run: the cross-check of page-weight's HTML parsing. */
  scriptsBeforeLoad: string[]
  warnings: string[]
  benchmarkIndex: number
  /** Benchmark index of each run, to tell a slow machine moment from a slow page. */
  benchmarkIndexRuns: number[]
  /** The LCP element of each run (they can differ when the page races its own late content). */
  lcpElements: string[]
}

function isUnder(url: string, origin: string, path: string): boolean {
  const parsed = new URL(url)
  return parsed.origin === origin && (parsed.pathname === path || parsed.pathname.startsWith(`${path}/`))
}

export function summarize(runs: LighthouseRun[], siteOrigin: string, analyticsPath: string): LighthouseSummary {
  if (runs.length === 0) throw new Error('No Lighthouse runs to summarize')
  const scores = {} as Record<CategoryId, number>
  for (const id of CATEGORIES) scores[id] = median(runs.map((run) => run.scores[id]))
  const audits = new Map<string, FailingAudit & { failedRuns: number }>()
  for (const audit of runs.flatMap((run) => run.failingAudits)) {
    const key = `${audit.category}/${audit.id}`
    const seen = audits.get(key)
    if (seen) seen.failedRuns++
    else audits.set(key, { ...audit, failedRuns: 1 })
  }
  const unique = (values: string[]) => [...new Set(values)].sort()
  return {
    url: runs[0]!.url,
    runs: runs.length,
    scores,
    performanceRuns: runs.map((run) => run.scores.performance),
    fcpMs: median(runs.map((run) => run.fcpMs)),
    lcpMs: median(runs.map((run) => run.lcpMs)),
    lcpRuns: runs.map((run) => Math.round(run.lcpMs)),
    cls: median(runs.map((run) => run.cls)),
    clsMax: Math.max(...runs.map((run) => run.cls)),
    tbtMs: median(runs.map((run) => run.tbtMs)),
    requestsBeforeLoad: median(runs.map((run) => requestsBeforeLoad(run).length)),
    requestsTotal: median(runs.map((run) => run.requests.length)),
    failingAudits: [...audits.values()],
    otherOrigins: unique(runs.flatMap((run) => otherOriginRequests(run, siteOrigin).map((request) => request.url))),
    analyticsCalls: unique(
      runs.flatMap((run) => run.requests.filter((request) => isUnder(request.url, siteOrigin, analyticsPath)).map((request) => request.url)),
    ),
    scriptsBeforeLoad: unique(
      runs.flatMap((run) =>
        requestsBeforeLoad(run)
          .filter((request) => request.resourceType === 'Script')
          .map((request) => request.url),
      ),
    ),
    warnings: unique(runs.flatMap((run) => run.warnings)),
    benchmarkIndex: median(runs.map((run) => run.benchmarkIndex)),
    benchmarkIndexRuns: runs.map((run) => Math.round(run.benchmarkIndex)),
    lcpElements: unique(runs.map((run) => run.lcpElement ?? 'not named')),
  }
}
