/**
 * Real visitors' Web Vitals (components/analytics/web-vitals.ts): the route template each metric
 * carries is a bounded set of values whatever the address (p75 per route is read on it), and the
 * properties are exactly what the event catalogue declares; the founders' console reads p75 per
 * route from PostHog strictly. That they are sent only after consent, one per metric, is
 * e2e/analytics.spec.ts; the console with PostHog answering, tests/integration/experiments-data-rest.test.ts.
 */
import { describe, expect, it, vi } from 'vitest'
import { routeTemplate, webVitalProperties } from '@/components/analytics/web-vitals'
import { fetchVitals, vitalsFrom, vitalsQuery, VITALS_DAYS } from '@/components/analytics/vitals-posthog'
import { vitalsSection } from '@/tools/owner/console/page'
import { tableRows } from '../helpers/console-page'

describe('routeTemplate', () => {
  it.each([
    ['/', 'en', '/'],
    ['/about', 'en', '/about'],
    ['/about/', 'en', '/about'],
    ['/waitlist/confirm', 'en', '/waitlist/confirm'],
    ['/blog', 'en', '/blog'],
    ['/blog/page/2', 'en', '/blog/page/[page]'],
    ['/blog/category/research', 'en', '/blog/category/[category]'],
    ['/blog/category/research/page/3', 'en', '/blog/category/[category]/page/[page]'],
    ['/blog/why-ai-interviews', 'en', '/blog/[slug]'],
    ['/privacy', 'en', '/[...slug]'],
    ['/no/such/page', 'en', '/[...slug]'],
    ['/de', 'de', '/'],
    ['/de/', 'de', '/'],
    ['/de/blog/warum-ki-interviews', 'de', '/blog/[slug]'],
    ['/de/waitlist', 'de', '/waitlist'],
    // Only the page's own language is a prefix: an English page whose slug looks like a code stays.
    ['/de', 'en', '/[...slug]'],
    ['/design', 'de', '/[...slug]'],
  ])('%s in %s is %s', (pathname, locale, template) => {
    expect(routeTemplate(pathname, locale)).toBe(template)
  })

  it('never carries what a visitor typed into the address', () => {
    for (const pathname of ['/blog/<script>', '/x?email=a@b.c', `/blog/${'a'.repeat(5000)}`, '/blog/😀/page/1', '/%00']) {
      expect(['/[...slug]', '/blog/[slug]', '/blog/page/[page]']).toContain(routeTemplate(pathname, 'en'))
    }
  })
})

describe('webVitalProperties', () => {
  const page = { pathname: '/de/about', locale: 'de' }
  it('rounds milliseconds and keeps CLS as a score', () => {
    expect(webVitalProperties({ name: 'LCP', value: 1234.56, rating: 'needs-improvement', navigationType: 'navigate' }, page)).toEqual({
      metric: 'LCP',
      value: 1235,
      rating: 'needs-improvement',
      route: '/about',
      locale: 'de',
      navigation_type: 'navigate',
    })
    expect(webVitalProperties({ name: 'CLS', value: 0.123456, rating: 'poor', navigationType: 'reload' }, page)).toMatchObject({ metric: 'CLS', value: 0.1235 })
  })
})

describe('p75 per route from PostHog (components/analytics/vitals-posthog.ts)', () => {
  it('asks for the web_vital events of the last days, per route and metric', () => {
    expect(vitalsQuery).toMatch(/quantile\(0\.75\)\(toFloat\(properties\.value\)\)/)
    expect(vitalsQuery).toMatch(new RegExp(`event = 'web_vital' AND timestamp > now\\(\\) - INTERVAL ${VITALS_DAYS} DAY`))
    expect(vitalsQuery).toMatch(/GROUP BY route, metric/)
  })

  it('keeps only what ./web-vitals.ts could have sent: a forged event in PostHog does not reach the console', () => {
    const routes = vitalsFrom([
      ['/about', 'LCP', 2100.5, 12],
      ['/about', 'CLS', 0.02, 12],
      ['/', 'TTFB', 80, 30],
      ['<script>alert(1)</script>', 'LCP', 1, 1],
      ['/x', 'FID', 10, 3],
      ['/y', 'LCP', -1, 3],
      ['/y', 'LCP', Number.NaN, 3],
      ['/z', 'LCP', 100, 0],
      ['/z', 'LCP', '100', 2],
      'junk',
      null,
    ])
    expect(routes).toEqual([
      { route: '/', metrics: { TTFB: { p75: 80, samples: 30 } } },
      { route: '/about', metrics: { LCP: { p75: 2100.5, samples: 12 }, CLS: { p75: 0.02, samples: 12 } } },
    ])
  })

  it('posts the query with the personal key to the EU cloud, and reports a refusal', async () => {
    const fetcher = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(Response.json({ results: [['/', 'INP', 120, 9]] }))
      .mockResolvedValueOnce(new Response('no', { status: 401 }))
    const config = { personalApiKey: 'phx_abcdefghijklmnopqrstuvwxyz', projectId: '12345' }
    expect(await fetchVitals(config, fetcher)).toEqual([{ route: '/', metrics: { INP: { p75: 120, samples: 9 } } }])
    expect(fetcher.mock.calls[0]![0]).toBe('https://eu.posthog.com/api/projects/12345/query/')
    await expect(fetchVitals(config, fetcher)).rejects.toThrow('HTTP 401')
  })
})

describe("the console's speed section", () => {
  it('says why there are no figures, escaping what PostHog said', () => {
    expect(vitalsSection({ kind: 'not-configured' }).text).toContain('POSTHOG_PERSONAL_API_KEY and POSTHOG_PROJECT_ID')
    const failed = vitalsSection({ kind: 'failed', reason: '<img src=x onerror=alert(1)>' }).text
    expect(failed).toContain('&lt;img')
    expect(failed).not.toContain('<img')
    expect(vitalsSection({ kind: 'read', routes: [] }).text).toContain(`No page load has been measured in the last ${VITALS_DAYS} days.`)
  })

  it('one row per route: each metric p75 (CLS as a score), a dash where none, and the page loads', () => {
    const page = vitalsSection({
      kind: 'read',
      routes: [{ route: '/about', metrics: { LCP: { p75: 2100.5, samples: 12 }, CLS: { p75: 0.023, samples: 11 } } }],
    }).text
    expect(tableRows(page, 'Real visitors’ Web Vitals, p75 per route')).toEqual([['/about', '2,101 ms', '–', '0.02', '–', '–', '12']])
  })
})
