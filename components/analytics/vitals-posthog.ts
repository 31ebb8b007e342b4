/**
 * Real visitors' Web Vitals as PostHog holds them (the `web_vital` events of ./web-vitals.ts):
 * the 75th percentile per route and metric over the last days, the figure Google's Core Web
 * Vitals are judged on. Owner side only (the founders' console): it needs PostHog's personal API
 * key (lib/posthog/query.ts).
 */
import { runHogQL, type PosthogQueryConfig } from '@/lib/posthog/query'
import type { EventProperties } from './events'

type Metric = EventProperties<'web_vital'>['metric']

export const VITAL_METRICS: readonly Metric[] = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB']

/** Per route, per metric: the p75 and how many page loads it rests on. */
export type RouteVitals = { route: string; metrics: Partial<Record<Metric, { p75: number; samples: number }>> }

export const VITALS_DAYS = 7

export const vitalsQuery = `SELECT properties.route AS route, properties.metric AS metric, quantile(0.75)(toFloat(properties.value)) AS p75, count() AS samples
FROM events
WHERE event = 'web_vital' AND timestamp > now() - INTERVAL ${VITALS_DAYS} DAY
GROUP BY route, metric
ORDER BY route, metric
LIMIT 1000`

// A template as ./web-vitals.ts writes it; anything else in PostHog (a forged event) is left out.
const ROUTE_PATTERN = /^\/[a-z0-9/[\].-]{0,80}$/

/** PostHog's rows, keeping only well-formed routes, metrics and figures; routes in order. */
export function vitalsFrom(rows: readonly unknown[]): RouteVitals[] {
  const byRoute = new Map<string, RouteVitals>()
  for (const row of rows) {
    if (!Array.isArray(row)) continue
    const [route, metric, p75, samples] = row as unknown[]
    if (typeof route !== 'string' || !ROUTE_PATTERN.test(route) || !VITAL_METRICS.includes(metric as Metric)) continue
    if (typeof p75 !== 'number' || !Number.isFinite(p75) || p75 < 0 || !Number.isSafeInteger(samples) || (samples as number) < 1) continue
    const entry = byRoute.get(route) ?? byRoute.set(route, { route, metrics: {} }).get(route)!
    entry.metrics[metric as Metric] = { p75, samples: samples as number }
  }
  return [...byRoute.values()].sort((a, b) => (a.route < b.route ? -1 : a.route > b.route ? 1 : 0))
}

export async function fetchVitals(config: PosthogQueryConfig, fetcher: typeof fetch = fetch): Promise<RouteVitals[]> {
  return vitalsFrom(await runHogQL(config, vitalsQuery, fetcher))
}
