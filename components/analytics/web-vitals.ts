/**
 * Real visitors' Web Vitals, for those who accepted analytics only: this module is part of the
 * chunk ./client.ts fetches after consent (through ./posthog.ts), so nobody else downloads it and
 * nothing is measured before the choice. The observers read the browser's buffered entries, so
 * metrics of a page load that happened before PostHog arrived are still counted.
 *
 * One `web_vital` event per metric and page load, sent when the browser settles it (LCP at the
 * first input or when the page hides, CLS and INP when it hides), with the route's template and
 * the page's language so the founders read p75 per route (docs/founders.md, "Real visitors'
 * speed"). A client-side navigation is not a new page load: its metrics count for the page that
 * loaded (web-vitals measures hard navigations).
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals'
import { DEFAULT_LANGUAGE } from '@/lib/i18n/languages'
import type { EventProperties } from './events'

const BLOG_ROUTES: readonly [RegExp, string][] = [
  [/^\/blog\/page\/[^/]+$/, '/blog/page/[page]'],
  [/^\/blog\/category\/[^/]+$/, '/blog/category/[category]'],
  [/^\/blog\/category\/[^/]+\/page\/[^/]+$/, '/blog/category/[category]/page/[page]'],
  [/^\/blog\/[^/]+$/, '/blog/[slug]'],
]
const FIXED = new Set(['/', '/about', '/waitlist', '/waitlist/confirm', '/waitlist/unsubscribe', '/blog', '/changelog', '/search'])

/**
 * The route an address is drawn by, without its language prefix and with every value that names
 * content replaced by the segment's name: a bounded set of values, so p75 can be read per route.
 * Pages from the Studio (and the 404, which the browser cannot tell from one) are `/[...slug]`.
 */
export function routeTemplate(pathname: string, locale: string): string {
  let path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  if (locale !== DEFAULT_LANGUAGE && (path === `/${locale}` || path.startsWith(`/${locale}/`))) path = path.slice(locale.length + 1) || '/'
  if (FIXED.has(path)) return path
  return BLOG_ROUTES.find(([pattern]) => pattern.test(path))?.[1] ?? '/[...slug]'
}

export type WebVitalProperties = EventProperties<'web_vital'>

export function webVitalProperties(
  metric: Pick<Metric, 'name' | 'value' | 'rating' | 'navigationType'>,
  page: { pathname: string; locale: string },
): WebVitalProperties {
  return {
    metric: metric.name,
    // CLS is a unitless score; the others are milliseconds, kept to the millisecond.
    value: metric.name === 'CLS' ? Math.round(metric.value * 10_000) / 10_000 : Math.round(metric.value),
    rating: metric.rating,
    route: routeTemplate(page.pathname, page.locale),
    locale: page.locale,
    navigation_type: metric.navigationType,
  }
}

/** Starts the five observers for this page load; `send` is called once per metric. */
export function watchWebVitals(send: (properties: WebVitalProperties) => void): void {
  const page = { pathname: window.location.pathname, locale: document.documentElement.lang || DEFAULT_LANGUAGE }
  const report = (metric: Metric) => send(webVitalProperties(metric, page))
  for (const observe of [onLCP, onINP, onCLS, onFCP, onTTFB]) observe(report)
}
