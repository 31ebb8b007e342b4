import type { BrowserContext, Page } from '@playwright/test'
import { captureAnalytics } from './analytics-capture'
import { expect, seedDoc, test, waitLikeAPerson } from './fixtures'

test.use({ consent: null })

const banner = (page: Page) => page.getByRole('region', { name: 'Analytics and your privacy' })

async function analyticsStorage(page: Page, context: BrowserContext) {
  const cookies = (await context.cookies()).map((c) => c.name).filter((name) => name.startsWith('ph_'))
  const storage = await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)].filter((k) => k.startsWith('ph_') || k.startsWith('__ph')))
  return [...cookies, ...storage]
}

async function accept(page: Page) {
  await banner(page).getByRole('button', { name: 'Accept analytics' }).click()
  await expect(banner(page)).toBeHidden()
}

/** Through the demo, a reply at each step, to its last step's waitlist button. */
async function playDemoToTheWaitlist(page: Page) {
  const settings = seedDoc<{ demoWidget: { title: string; chooseReplyLabel: string; joinWaitlistLabel: string } }>('siteSettings').demoWidget
  const conversation = seedDoc<{ steps: unknown[] }>(seedDoc<{ demo: { _ref: string } }>('landingPage').demo._ref)
  await page.getByRole('button', { name: 'See How It Works' }).click()
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
    await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click()
    await page.getByRole('link', { name: 'Get Started - $29/month' }).click()
    await expect(page).toHaveURL('/waitlist')
    await page.waitForTimeout(1500)
    expect(ph.requests).toEqual([])
    expect(await analyticsStorage(page, context)).toEqual([])
    expect((await context.cookies()).map((c) => c.name)).toEqual([])
  })
})

test.describe('after Decline', () => {
  test('nothing is sent, nothing is stored, and the choice survives a reload', async ({ page, context }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/')
    await banner(page).getByRole('button', { name: 'Decline' }).click()
    await expect(banner(page)).toBeHidden()
    await page.getByRole('link', { name: 'Start Free Trial' }).first().click()
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
    await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' }).click()
    await expect(banner(page)).toContainText('Your browser asks websites not to track you')
    await expect(banner(page).getByRole('button', { name: 'Accept analytics' })).toHaveCount(0)
    await banner(page).getByRole('button', { name: 'Decline' }).click()
    await page.getByRole('link', { name: 'Start Free Trial' }).first().click()
    await page.waitForTimeout(1500)
    expect(ph.requests).toEqual([])
  })

  test('Cookie settings in the footer change an earlier Accept, and PostHog storage is removed', async ({ page, context }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/')
    await accept(page)
    await expect.poll(() => ph.named('page_view').length).toBeGreaterThan(0)
    await expect.poll(() => analyticsStorage(page, context)).not.toEqual([])

    const settings = page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' })
    await settings.click()
    await expect(banner(page).getByRole('heading')).toBeFocused()
    await banner(page).getByRole('button', { name: 'Decline' }).click()
    await expect(settings).toBeFocused()
    await expect.poll(() => analyticsStorage(page, context)).toEqual([])
    const sent = ph.events.length
    await page.getByRole('link', { name: 'Start Free Trial' }).first().click()
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
    await page.getByRole('banner').getByRole('link', { name: 'Start Free Trial' }).click()
    await expect(page).toHaveURL('/waitlist')
    await expect.poll(pages).toEqual(['/', '/waitlist'])
    await page.getByRole('banner').getByRole('button', { name: 'Resources' }).click()
    await page.getByRole('banner').getByRole('link', { name: 'About' }).click()
    await expect(page).toHaveURL('/about')
    await expect.poll(pages).toEqual(['/', '/waitlist', '/about'])
    await page.goto('/no-such-page')
    await expect.poll(pages).toEqual(['/', '/waitlist', '/about', '/no-such-page'])
    // The choice survived the full page load of the 404.
    await expect(banner(page)).toBeHidden()
  })

  const startTrial: [string, string, (page: Page) => Promise<void>][] = [
    ['navigation', '/', (page) => page.getByRole('banner').getByRole('link', { name: 'Start Free Trial' }).click()],
    ['hero', '/', (page) => page.locator('section[aria-labelledby="hero-title"]').getByRole('link', { name: 'Start Free Trial' }).click()],
    ['pricing', '/', (page) => page.getByRole('link', { name: 'Get Started - $29/month' }).click()],
    ['pricing_cta', '/', (page) => page.getByRole('link', { name: 'Start your free trial' }).click()],
    ['cta', '/', (page) => page.locator('section[aria-labelledby="cta-title"]').getByRole('link', { name: 'Start Free Trial' }).click()],
    ['about_cta', '/about', (page) => page.getByRole('main').getByRole('link', { name: 'Start Free Trial' }).click()],
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

  const tryDemo: [string, (page: Page) => Promise<void>][] = [
    ['navigation', (page) => page.getByRole('banner').getByRole('button', { name: 'Try Demo' }).click()],
    ['hero', (page) => page.getByRole('button', { name: 'See How It Works' }).click()],
    ['cta', (page) => page.getByRole('button', { name: 'Try Demo First' }).click()],
    ['footer', (page) => page.getByRole('contentinfo').getByRole('button', { name: 'Try Demo' }).click()],
  ]
  for (const [location, click] of tryDemo) {
    test(`try_demo_click from ${location}`, async ({ page }) => {
      const ph = await captureAnalytics(page)
      await page.goto('/')
      await accept(page)
      await click(page)
      await expect.poll(() => ph.named('try_demo_click').map((e) => e.properties.button_location)).toEqual([location])
    })
  }

  test('navigation_click names the menu item', async ({ page }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/about')
    await accept(page)
    await page.getByRole('banner').getByRole('link', { name: 'Pricing' }).click()
    await expect(page).toHaveURL('/#pricing')
    await expect.poll(() => ph.named('navigation_click').map((e) => e.properties.menu_item)).toEqual(['Pricing'])
  })

  test('contact_us_click from the footer Contact link', async ({ page }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/')
    await accept(page)
    // A mail link leaves the page for the mail client; keep the page to read the event.
    await page.evaluate(() => document.addEventListener('click', (event) => event.preventDefault()))
    await page.getByRole('contentinfo').getByRole('link', { name: 'Contact', exact: true }).click()
    await expect.poll(() => ph.named('contact_us_click').length).toBe(1)
  })

  test('waitlist_join carries has_company and the e-mail domain, never the person', async ({ page }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/waitlist')
    await accept(page)
    const email = `ada.${Date.now()}@Engines.Example`
    await page.getByLabel('Your Name *').fill('Ada Lovelace')
    await page.getByLabel('Project or Company').fill('Analytical Engines')
    await page.getByLabel('Work Email *').fill(email)
    await waitLikeAPerson(page)
    await page.getByRole('button', { name: 'Join Waitlist' }).click()
    await expect(page.getByRole('heading', { name: "You're on the list!" })).toBeVisible()
    await expect.poll(() => ph.named('waitlist_join').length).toBe(1)
    const [join] = ph.named('waitlist_join')
    expect(join?.properties).toMatchObject({ has_company: true, email_domain: 'engines.example' })
    const everything = JSON.stringify(ph.events)
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
    await page.locator('section[aria-labelledby="hero-title"]').getByRole('link', { name: 'Start Free Trial' }).click()
    await expect(page).toHaveURL('/waitlist')
    await expect.poll(() => ph.named('start_free_trial_click').map((e) => e.properties.button_location)).toEqual(['hero'])
  })
})

test.describe('accepting and clicking at once', () => {
  test('the header "Start Free Trial" click reaches the capture endpoint 10 times out of 10, also while PostHog is still loading', async ({ browser }, testInfo) => {
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
      await banner(page).getByRole('button', { name: 'Accept analytics' }).click()
      await page.getByRole('banner').getByRole('link', { name: 'Start Free Trial' }).click()
      await expect(page).toHaveURL('/waitlist')
      await expect
        .poll(() => ph.named('start_free_trial_click').map((e) => e.properties.button_location), { message: `attempt ${attempt}`, timeout: 15_000 })
        .toEqual(['navigation'])
      await context.close()
    }
  })
})

