import type { BrowserContext, Page } from '@playwright/test'
import { captureAnalytics } from './analytics-capture'
import { expect, test, waitLikeAPerson } from './fixtures'
import { startTrialLinks, tryDemoButtons } from './landing-controls'
import { copy } from './seed-copy'
import { waitlistForm } from './waitlist-form'

test.use({ consent: null })

const { consent, navigation: nav } = copy.settings
const pricing = copy.section(copy.landing, 'pricingSection')
const paidTier = pricing.tiers.map((reference) => copy.deref(reference)).find((tier) => tier.availability === 'available')!
const banner = (page: Page) => page.getByRole('region', { name: consent.title })

async function analyticsStorage(page: Page, context: BrowserContext) {
  const cookies = (await context.cookies()).map((c) => c.name).filter((name) => name.startsWith('ph_'))
  const storage = await page.evaluate(() =>
    [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((k) => k.startsWith('ph_') || k.startsWith('__ph')),
  )
  return [...cookies, ...storage]
}

async function accept(page: Page) {
  await banner(page).getByRole('button', { name: consent.acceptLabel }).click()
  await expect(banner(page)).toBeHidden()
}

/** Through the demo, a reply at each step, to its last step's waitlist button. */
async function playDemoToTheWaitlist(page: Page) {
  const settings = copy.settings.demoWidget
  const conversation = copy.deref(copy.landing.demo)
  await tryDemoButtons.hero(page).click()
  const widget = page.getByRole('dialog', { name: settings.title })
  for (let step = 0; step < conversation.steps.length; step++) {
    const replies = widget.getByRole('group', { name: settings.chooseReplyLabel }).getByRole('button')
    await replies.first().click()
    if (step < conversation.steps.length - 1) await expect(widget.locator('li[data-from="visitor"]')).toHaveCount(step + 1)
  }
  await widget.getByRole('link', { name: settings.joinWaitlistLabel }).click()
}

test.describe('before the visitor chooses', () => {
  test('nothing is sent and nothing is stored', async ({ page, context }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/')
    await expect(banner(page)).toBeVisible()
    await page
      .getByRole('banner')
      .getByRole('link', { name: copy.navLabel('/#pricing') })
      .click()
    await page.getByRole('link', { name: paidTier.ctaLabel }).click()
    await expect(page).toHaveURL('/waitlist')
    await page.waitForTimeout(1500)
    expect(ph.requests).toEqual([])
    expect(await analyticsStorage(page, context)).toEqual([])
    expect((await context.cookies()).map((c) => c.name)).toEqual([])
  })

  test('the question comes first: the keyboard reaches its buttons right after the skip link, and it is in the HTML before the header', async ({ page }) => {
    const response = await page.goto('/privacy')
    // In the server HTML, ahead of the page: it paints with the first words, not last.
    const html = await response!.text()
    const bannerAt = html.indexOf(`aria-labelledby="consent-title"`)
    expect(bannerAt).toBeGreaterThan(-1)
    expect(bannerAt).toBeLessThan(html.indexOf('<header'))
    const accept = banner(page).getByRole('button', { name: consent.acceptLabel })
    // The buttons work once React runs; a keyboard visitor tabs from the top of the page.
    await expect(accept).toBeEnabled()
    await page.keyboard.press('Tab')
    await expect(page.getByRole('link', { name: copy.settings.labels.skipToContent })).toBeFocused()
    // Then the banner's own stops only: its policy link, Accept, Decline; nothing of the page between.
    for (const stop of [
      banner(page).getByRole('link', { name: consent.policyLink.label }),
      accept,
      banner(page).getByRole('button', { name: consent.declineLabel }),
    ]) {
      await page.keyboard.press('Tab')
      await expect(stop).toBeFocused()
    }
  })
})

test.describe('after Decline', () => {
  test('nothing is sent, nothing is stored, and the choice survives a reload', async ({ page, context }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/')
    await banner(page).getByRole('button', { name: consent.declineLabel }).click()
    await expect(banner(page)).toBeHidden()
    await startTrialLinks.navigation(page).click()
    await page.reload()
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(banner(page)).toBeHidden()
    await page.waitForTimeout(1500)
    expect(ph.requests).toEqual([])
    expect(await analyticsStorage(page, context)).toEqual([])
  })

  test('a browser sending Global Privacy Control counts as a decline', async ({ page }) => {
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }))
    const ph = await captureAnalytics(page)
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    // The browser has answered already: no question, and the settings say why.
    await expect(banner(page)).toBeHidden()
    await page.getByRole('contentinfo').getByRole('button', { name: consent.settingsLabel }).click()
    await expect(banner(page)).toContainText(consent.browserRefusesNote)
    await expect(banner(page).getByRole('button', { name: consent.acceptLabel })).toHaveCount(0)
    await banner(page).getByRole('button', { name: consent.declineLabel }).click()
    await startTrialLinks.navigation(page).click()
    await page.waitForTimeout(1500)
    expect(ph.requests).toEqual([])
  })

  test('Cookie settings in the footer change an earlier Accept, and PostHog storage is removed', async ({ page, context }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/')
    await accept(page)
    await expect.poll(() => ph.named('page_view').length).toBeGreaterThan(0)
    await expect.poll(() => analyticsStorage(page, context)).not.toEqual([])

    const settings = page.getByRole('contentinfo').getByRole('button', { name: consent.settingsLabel })
    await settings.click()
    await expect(banner(page).getByRole('heading')).toBeFocused()
    await banner(page).getByRole('button', { name: consent.declineLabel }).click()
    await expect(settings).toBeFocused()
    await expect.poll(() => analyticsStorage(page, context)).toEqual([])
    const sent = ph.events.length
    await startTrialLinks.navigation(page).click()
    await page.waitForTimeout(1500)
    expect(ph.events.length).toBe(sent)
  })
})

test.describe('after Accept', () => {
  test('page_view arrives for every route, client-side navigations and the 404 included', async ({ page }) => {
    const ph = await captureAnalytics(page)
    const pages = () => ph.named('page_view').map((e) => e.properties.page)
    await page.goto('/')
    await accept(page)
    await expect.poll(pages).toEqual(['/'])
    await startTrialLinks.navigation(page).click()
    await expect(page).toHaveURL('/waitlist')
    await expect.poll(pages).toEqual(['/', '/waitlist'])
    await page.getByRole('banner').getByRole('button', { name: nav.resourcesLabel }).click()
    await page
      .getByRole('banner')
      .getByRole('link', { name: copy.navLabel('/about') })
      .click()
    await expect(page).toHaveURL('/about')
    await expect.poll(pages).toEqual(['/', '/waitlist', '/about'])
    await page.goto('/no-such-page')
    await expect.poll(pages).toEqual(['/', '/waitlist', '/about', '/no-such-page'])
    // The choice survived the full page load of the 404.
    await expect(banner(page)).toBeHidden()
  })

  test('web vitals of the page load arrive after consent, one of each with its route template and language, when the page hides', async ({ page }) => {
    const ph = await captureAnalytics(page)
    await page.goto(`/de/blog/${copy.doc('post-why-ai-interviews-de', 'post').slug.current}`)
    // The German page asks in German.
    const germanConsent = copy.doc('siteSettings-de', 'siteSettings').consent
    await page.getByRole('region', { name: germanConsent.title }).getByRole('button', { name: germanConsent.acceptLabel }).click()
    await expect.poll(() => ph.named('page_view').length).toBe(1)
    // An interaction, for INP (reported only when one took 40 ms or more: not asserted).
    await page.getByRole('banner').getByRole('button').first().click()
    // The page hides, as when the visitor switches tabs: the metrics still open are settled and sent.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
      document.dispatchEvent(new Event('visibilitychange'))
    })
    const vitals = () => ph.named('web_vital').map((e) => e.properties)
    await expect
      .poll(() =>
        vitals()
          .map((v) => v.metric)
          .filter((m) => m !== 'INP')
          .sort(),
      )
      .toEqual(['CLS', 'FCP', 'LCP', 'TTFB'])
    for (const vital of vitals()) {
      expect(vital).toMatchObject({ route: '/blog/[slug]', locale: 'de', navigation_type: 'navigate' })
      expect(typeof vital.value).toBe('number')
      expect(['good', 'needs-improvement', 'poor']).toContain(vital.rating)
    }
  })

  test('page_view names the language of the page, English or German', async ({ page }) => {
    const ph = await captureAnalytics(page)
    const views = () => ph.named('page_view').map((e) => [e.properties.page, e.properties.locale])
    await page.goto('/about')
    await accept(page)
    await expect.poll(views).toEqual([['/about', 'en']])
    await page.goto('/de/about')
    await expect.poll(views).toEqual([
      ['/about', 'en'],
      ['/de/about', 'de'],
    ])
  })

  const startTrial: [string, string, (page: Page) => Promise<void>][] = [
    ['navigation', '/', (page) => startTrialLinks.navigation(page).click()],
    ['hero', '/', (page) => startTrialLinks.hero(page).click()],
    ['pricing', '/', (page) => page.getByRole('link', { name: paidTier.ctaLabel }).click()],
    ['pricing_cta', '/', (page) => page.getByRole('link', { name: pricing.ctaLabel }).click()],
    ['cta', '/', (page) => startTrialLinks.cta(page).click()],
    [
      'about_cta',
      '/about',
      (page) =>
        page
          .getByRole('main')
          .getByRole('link', { name: copy.section(copy.about, 'ctaSection').primaryCtaLabel })
          .click(),
    ],
    ['demo', '/', playDemoToTheWaitlist],
  ]
  for (const [location, path, click] of startTrial) {
    test(`start_free_trial_click from ${location}`, async ({ page }) => {
      const ph = await captureAnalytics(page)
      await page.goto(path)
      await accept(page)
      await click(page)
      await expect(page).toHaveURL('/waitlist')
      await expect.poll(() => ph.named('start_free_trial_click').map((e) => e.properties.button_location)).toEqual([location])
    })
  }

  for (const [location, button] of Object.entries(tryDemoButtons)) {
    test(`try_demo_click from ${location}`, async ({ page }) => {
      const ph = await captureAnalytics(page)
      await page.goto('/')
      await accept(page)
      await button(page).click()
      await expect.poll(() => ph.named('try_demo_click').map((e) => e.properties.button_location)).toEqual([location])
    })
  }

  test('navigation_click names the menu item', async ({ page }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/about')
    await accept(page)
    const pricingLabel = copy.navLabel('/#pricing')
    await page.getByRole('banner').getByRole('link', { name: pricingLabel }).click()
    await expect(page).toHaveURL('/#pricing')
    await expect.poll(() => ph.named('navigation_click').map((e) => e.properties.menu_item)).toEqual([pricingLabel])
  })

  test('contact_us_click from the footer Contact link', async ({ page }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/')
    await accept(page)
    // A mail link leaves the page for the mail client; keep the page to read the event.
    await page.evaluate(() => document.addEventListener('click', (event) => event.preventDefault()))
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: copy.footerLabel((link) => link.kind === 'email'), exact: true })
      .click()
    await expect.poll(() => ph.named('contact_us_click').length).toBe(1)
  })

  test('waitlist_join carries has_company and the e-mail domain, never the person', async ({ page }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/waitlist')
    await accept(page)
    const email = `ada.${Date.now()}@Engines.Example`
    const form = waitlistForm(page)
    await form.name.fill('Ada Lovelace')
    await form.company.fill('Analytical Engines')
    await form.email.fill(email)
    await waitLikeAPerson(page)
    await form.submit.click()
    await expect(form.confirmed).toBeVisible()
    await expect.poll(() => ph.named('waitlist_join').length).toBe(1)
    const [join] = ph.named('waitlist_join')
    expect(join?.properties).toMatchObject({ has_company: true, email_domain: 'engines.example' })
    const everything = JSON.stringify(ph.events)
    // not seed copy: what this visitor typed, which must never reach analytics.
    for (const secret of ['Ada', 'Lovelace', 'Analytical', email.split('@')[0]!]) expect(everything).not.toContain(secret)
  })

  test('events go to the same-origin proxy only', async ({ page }) => {
    const ph = await captureAnalytics(page)
    const thirdParty: string[] = []
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (!['localhost', '127.0.0.1'].includes(url.hostname)) thirdParty.push(request.url())
    })
    await page.goto('/')
    await accept(page)
    await expect.poll(() => ph.events.length).toBeGreaterThan(0)
    expect(ph.requests.every((r) => new URL(r.url()).pathname.startsWith('/ingest/'))).toBe(true)
    expect(thirdParty).toEqual([])
  })
})

test.describe('a visitor who accepted on an earlier visit', () => {
  test.use({ consent: 'granted' })

  test('a link clicked before PostHog has loaded waits for its event, then opens the page', async ({ page }) => {
    const ph = await captureAnalytics(page)
    // A slow network: PostHog's code (the chunk that names its ingestion host) arrives 300 ms late,
    // within the half second a link waits for it (the next page loads faster than that here).
    let heldScript = false
    await page.route('**/_next/static/chunks/**', async (route) => {
      try {
        const response = await route.fetch()
        const body = await response.text()
        if (body.includes('i.posthog.com')) {
          heldScript = true
          await new Promise((resolve) => setTimeout(resolve, 300))
        }
        await route.fulfill({ response, body })
      } catch {
        // The page went on to /waitlist while this chunk was on its way: nothing left to answer.
      }
    })
    await page.goto('/')
    // The page view asks for PostHog as the page starts: from then on the click listener is in place.
    await expect.poll(() => heldScript).toBe(true)
    await startTrialLinks.hero(page).click()
    await expect(page).toHaveURL('/waitlist')
    await expect.poll(() => ph.named('start_free_trial_click').map((e) => e.properties.button_location)).toEqual(['hero'])
  })
})

test.describe('accepting and clicking at once', () => {
  test('the header "Start Free Trial" click reaches the capture endpoint 10 times out of 10, also while PostHog is still loading', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(150_000)
    const baseURL = testInfo.project.use.baseURL
    for (let attempt = 1; attempt <= 10; attempt++) {
      // A new visitor each time: no consent yet, nothing cached.
      const context = await browser.newContext({ baseURL })
      const page = await context.newPage()
      const ph = await captureAnalytics(page)
      // Every other attempt, PostHog's code arrives a second late: the link cannot wait that long,
      // so the click is raised while PostHog loads and the next page opens before it has it.
      if (attempt % 2 === 0) {
        await page.route('**/_next/static/chunks/**', async (route) => {
          try {
            const response = await route.fetch()
            const body = await response.text()
            if (body.includes('i.posthog.com')) await new Promise((resolve) => setTimeout(resolve, 1000))
            await route.fulfill({ response, body })
          } catch {
            // The page went on while this chunk was on its way.
          }
        })
      }
      await page.goto('/')
      await banner(page).getByRole('button', { name: consent.acceptLabel }).click()
      await startTrialLinks.navigation(page).click()
      await expect(page).toHaveURL('/waitlist')
      await expect
        .poll(() => ph.named('start_free_trial_click').map((e) => e.properties.button_location), { message: `attempt ${attempt}`, timeout: 15_000 })
        .toEqual(['navigation'])
      await context.close()
    }
  })
})
