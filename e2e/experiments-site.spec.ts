import type { Page } from '@playwright/test'
import { captureAnalytics } from './analytics-capture'
import { editorsExample, variantSection, type ExperimentDocument } from '../tools/content/experiment-example'
import { expect, layoutShiftSoFar, test } from './fixtures'
import { publishLocally, unpublishLocally } from './local-publish'
import { copy } from './seed-copy'

// An experiment published as an editor would (the editors' guide's example, through
// `content:publish`), seen by a consenting visitor, a declining one and a crawler, and stopped.
// Every participant sees variant b here (its share at 100 %), so the test is not left to chance.

const example = editorsExample()
const allB: ExperimentDocument = { ...example, variants: example.variants.map((variant) => ({ ...variant, share: 100 })) }
const variantTitle = variantSection(example, 'en').title
const controlTitle = copy.section(copy.landing, 'heroSection').title

const { consent } = copy.settings
const banner = (page: Page) => page.getByRole('region', { name: consent.title })
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'

test.use({ consent: null, userAgent: CHROME })
// Each publish runs the Studio's rules over the whole dataset: slow on a busy machine.
test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  test.setTimeout(120_000)
  expect(await publishLocally([allB])).toMatch(/Revalidated experiment, doc:experiment-hero-headline/)
})
test.afterAll(async () => {
  test.setTimeout(120_000)
  await unpublishLocally([example._id])
})

test('a consenting visitor gets variant b in the server’s HTML, sticky, at the page’s one address', async ({ request }) => {
  const first = await request.get('/', { headers: { cookie: 'consent=granted', 'user-agent': CHROME } })
  const html = await first.text()
  expect(html).toContain(variantTitle)
  expect(html).not.toContain(controlTitle)
  expect(html).toContain('data-experiment="hero-headline" data-experiment-variant="b"')
  // The canonical address, hreflang alternates and robots are the page's own, never the variant's.
  const head = (page: string) => page.match(/<link rel="(?:canonical|alternate)"[^>]*>|<meta name="robots"[^>]*>/g)
  const control = await (await request.get('/', { headers: { 'user-agent': CHROME } })).text()
  expect(head(html)).toEqual(head(control))
  expect(head(html)?.some((tag) => tag.includes('canonical'))).toBe(true)
  // No link names the internal address (it is in the RSC payload only, as the route's parameter).
  expect(html).not.toMatch(/(?:href|content)="[^"]*~hero-headline/)
  expect(first.headers()['set-cookie']).toBe('experiments=hero-headline=b; Path=/; Max-Age=7776000; SameSite=Lax')
  // German participants get the German variant.
  expect(await (await request.get('/de', { headers: { cookie: 'consent=granted', 'user-agent': CHROME } })).text()).toContain('Hören Sie jeden Nutzer.')
  // The internal address is nobody's page.
  expect((await request.get('/en~hero-headline.b', { headers: { cookie: 'consent=granted' } })).status()).toBe(404)
})

test('a prerender writes no cookie: a participant not yet assigned is declined, one assigned gets their variant', async ({ request }) => {
  // What Chromium sends for a page its speculation rules prerender (components/site/speculation-rules.tsx).
  const prerender = { 'sec-purpose': 'prefetch;prerender', 'user-agent': CHROME }
  const unassigned = await request.get('/', { headers: { ...prerender, cookie: 'consent=granted' }, maxRedirects: 0 })
  // Not a 2xx: Chromium drops the prerender, and the click loads the page, which assigns.
  expect(unassigned.status()).toBe(503)
  expect(unassigned.headers()['set-cookie']).toBeUndefined()
  expect(unassigned.headers()['cache-control']).toBe('private, no-store')
  const assigned = await request.get('/', { headers: { ...prerender, cookie: 'consent=granted; experiments=hero-headline=b' } })
  expect(assigned.status()).toBe(200)
  expect(await assigned.text()).toContain(variantTitle)
  expect(assigned.headers()['set-cookie']).toBeUndefined()
  // Everyone else's prerender is the page as ever.
  const visitor = await request.get('/', { headers: prerender })
  expect(visitor.status()).toBe(200)
  expect(await visitor.text()).toContain(controlTitle)
})

test('declined, undecided, GPC, DNT and crawlers see control, and nothing is stored', async ({ request }) => {
  for (const headers of <Record<string, string>[]>[
    { 'user-agent': CHROME },
    { 'user-agent': CHROME, cookie: 'experiments=hero-headline=b' },
    { 'user-agent': CHROME, cookie: 'consent=granted', 'sec-gpc': '1' },
    { 'user-agent': CHROME, cookie: 'consent=granted', dnt: '1' },
    { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', cookie: 'consent=granted' },
  ]) {
    const response = await request.get('/', { headers })
    const html = await response.text()
    expect(html, JSON.stringify(headers)).toContain(controlTitle)
    expect(html).not.toContain('data-experiment')
    expect(response.headers()['set-cookie']).toBeUndefined()
  }
  // A forged cookie naming a variant the experiment does not have shows control.
  expect(await (await request.get('/', { headers: { 'user-agent': CHROME, cookie: 'consent=granted; experiments=hero-headline=zzz' } })).text()).toContain(
    controlTitle,
  )
})

test('in Chromium: Accept, and the next page is variant b with no layout shift; PostHog hears the exposure and the variant', async ({ page, context }) => {
  const ph = await captureAnalytics(page)
  await page.goto('/')
  await banner(page).getByRole('button', { name: consent.acceptLabel }).click()
  await expect(banner(page)).toBeHidden()
  expect((await context.cookies()).find((cookie) => cookie.name === 'consent')).toMatchObject({ value: 'granted', path: '/', sameSite: 'Lax' })
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toContainText(variantTitle)
  const cls = await layoutShiftSoFar(page)
  console.log(`experiment variant page CLS: ${cls}`)
  expect(cls).toBeLessThan(0.001)
  expect((await context.cookies()).find((cookie) => cookie.name === 'experiments')).toMatchObject({
    value: 'hero-headline=b',
    httpOnly: false,
    sameSite: 'Lax',
  })
  await expect
    .poll(() => ph.named('$feature_flag_called').map((event) => event.properties))
    .toContainEqual(expect.objectContaining({ $feature_flag: 'hero-headline', $feature_flag_response: 'b' }))
  await expect.poll(() => ph.named('page_view').some((event) => event.properties['$feature/hero-headline'] === 'b')).toBe(true)
  // Once per page view of the varied section: one for this view, none for a page without it.
  const exposures = ph.named('$feature_flag_called').length
  await page.goto('/privacy')
  await expect.poll(() => ph.named('page_view').filter((event) => event.properties.page === '/privacy').length).toBe(1)
  expect(ph.named('$feature_flag_called')).toHaveLength(exposures)
  // Sticky: the same variant on the next visit.
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toContainText(variantTitle)
})

test('in Chromium: Decline, and the page stays control, with no cookie and nothing sent', async ({ page, context }) => {
  const ph = await captureAnalytics(page)
  await page.goto('/')
  await banner(page).getByRole('button', { name: consent.declineLabel }).click()
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toContainText(controlTitle)
  expect((await context.cookies()).map((cookie) => cookie.name)).toEqual([])
  expect(ph.requests).toEqual([])
})

test('stopping the experiment takes effect on the next request, with no rebuild', async ({ request }) => {
  await publishLocally([{ ...allB, state: 'stopped' }])
  const html = await (await request.get('/', { headers: { cookie: 'consent=granted; experiments=hero-headline=b', 'user-agent': CHROME } })).text()
  expect(html).toContain(controlTitle)
  expect(html).not.toContain('data-experiment')
})
