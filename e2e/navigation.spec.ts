import { expect, seedDoc, test } from './fixtures'

const settings = seedDoc<{ appUrl: string; contact: { generalEmail: string } }>('siteSettings')

test.describe('top navigation', () => {
  test('Features and Pricing jump to their sections on the landing page', async ({ page }) => {
    await page.goto('/about')
    const nav = page.getByRole('banner').getByRole('navigation')
    await nav.getByRole('link', { name: 'Features' }).click()
    await expect(page).toHaveURL('/#features')
    await expect(page.locator('#features')).toBeInViewport()
    await nav.getByRole('link', { name: 'Pricing' }).click()
    await expect(page).toHaveURL('/#pricing')
    await expect(page.locator('#pricing')).toBeInViewport()
  })

  test('the Resources dropdown opens, leads to About, and closes with Escape returning focus', async ({ page }) => {
    await page.goto('/')
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Resources' })
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    const about = page.getByRole('banner').getByRole('link', { name: 'About' })
    await expect(about).toBeHidden()

    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await expect(about).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(about).toBeHidden()
    await expect(toggle).toBeFocused()

    // Keyboard only: Enter opens, Tab reaches the link, Enter follows it.
    await page.keyboard.press('Enter')
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await page.keyboard.press('Tab')
    await expect(about).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL('/about')
  })

  test('a click outside closes the dropdown', async ({ page }) => {
    await page.goto('/')
    const toggle = page.getByRole('banner').getByRole('button', { name: 'Resources' })
    await toggle.click()
    await page.getByRole('heading', { level: 1 }).click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  })

  test('Sign In goes to the app site and Start Free Trial to the waitlist', async ({ page }) => {
    await page.goto('/')
    const banner = page.getByRole('banner')
    await expect(banner.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', settings.appUrl)
    await banner.getByRole('link', { name: 'Start Free Trial' }).click()
    await expect(page).toHaveURL('/waitlist')
  })

  test('Try Demo is a button that announces a demo toggle', async ({ page }) => {
    await page.goto('/')
    const toggles = await page.evaluate(() => {
      const seen: string[] = []
      window.addEventListener('demo-widget:toggle', (event) => seen.push((event as CustomEvent<{ location: string }>).detail.location))
      ;(window as unknown as { seenToggles: string[] }).seenToggles = seen
      return seen.length
    })
    expect(toggles).toBe(0)
    await page.getByRole('banner').getByRole('button', { name: 'Try Demo' }).click()
    await page.getByRole('button', { name: 'See How It Works' }).click()
    await page.getByRole('button', { name: 'Try Demo First' }).click()
    expect(await page.evaluate(() => (window as unknown as { seenToggles: string[] }).seenToggles)).toEqual(['navigation', 'hero', 'cta'])
  })
})

test.describe('landing page', () => {
  test('shows the sections in the spec order', async ({ page }) => {
    await page.goto('/')
    const ids = await page.locator('main > section').evaluateAll((sections) => sections.map((s) => s.id || s.getAttribute('aria-labelledby')))
    expect(ids).toEqual(['hero-title', 'logos-title', 'how-it-works', 'features', 'cards-title', 'audiences', 'pricing', 'faq', 'cta-title'])
  })

  test('pricing: Starter is free and disabled, Pro is $29 a month and leads to the waitlist', async ({ page }) => {
    await page.goto('/#pricing')
    const starter = page.locator('[data-tier="Starter"]')
    await expect(starter.getByTestId('tier-price')).toHaveText('Free')
    await expect(starter.getByText('10 insights per month')).toBeVisible()
    const comingSoon = starter.getByRole('button', { name: 'Coming Soon' })
    await expect(comingSoon).toBeDisabled()

    const pro = page.locator('[data-tier="Pro Plan"]')
    await expect(pro.getByTestId('tier-price')).toHaveText('$29')
    await expect(pro).toContainText('/month')
    await expect(pro).toContainText('14-day free trial · No credit card required · Cancel anytime')
    await expect(pro).toContainText('Up to 1000 insights per month')
    for (const feature of ['AI-powered conversations', 'Real-time insights dashboard', 'Slack integration', 'Custom branding', 'Priority support']) {
      await expect(pro.getByRole('listitem').filter({ hasText: feature })).toBeVisible()
    }
    await pro.getByRole('link', { name: 'Get Started - $29/month' }).click()
    await expect(page).toHaveURL('/waitlist')
  })

  test('the hero and closing calls to action lead to the waitlist', async ({ page }) => {
    await page.goto('/')
    await page.getByRole('main').getByRole('link', { name: 'Start Free Trial' }).first().click()
    await expect(page).toHaveURL('/waitlist')
    await page.goto('/')
    await page.locator('section[aria-labelledby="cta-title"]').getByRole('link', { name: 'Start Free Trial' }).click()
    await expect(page).toHaveURL('/waitlist')
  })

  test('the FAQ opens with the keyboard and says a plan can be changed from the dashboard', async ({ page }) => {
    await page.goto('/')
    const question = page.locator('summary', { hasText: 'Can I upgrade, downgrade or cancel my plan?' })
    await question.focus()
    await page.keyboard.press('Enter')
    await expect(page.getByText(/upgrade, downgrade or cancel your plan at any time from your dashboard/)).toBeVisible()
  })

  test('sample testimonial and logos are labelled as samples', async ({ page }) => {
    await page.goto('/')
    await expect(page.locator('section[aria-labelledby="cta-title"] figcaption')).toContainText('Sample')
    await expect(page.locator('#logos-title')).toContainText('Sample')
  })
})

test.describe('footer', () => {
  test('every link goes where the content says, and planned pages are not links', async ({ page }) => {
    await page.goto('/about')
    const footer = page.getByRole('contentinfo')
    const expectations: [string, string][] = [
      ['Features', '/#features'],
      ['Pricing', '/#pricing'],
      ['About', '/about'],
      ['Contact', `mailto:${settings.contact.generalEmail}`],
      // Pages made in the Studio, linked by reference.
      ['Careers', '/careers'],
      ['Privacy Policy', '/privacy'],
      ['Terms of Service', '/terms'],
      ['Cookie Policy', '/cookies'],
      ['GDPR', '/gdpr'],
    ]
    for (const [name, href] of expectations) await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href)
    await expect(footer.getByRole('button', { name: 'Try Demo' })).toBeVisible()
    for (const planned of ['Integrations', 'Blog', 'Help Center', 'Documentation', 'API Reference', 'System Status']) {
      await expect(footer.getByRole('link', { name: planned })).toHaveCount(0)
      await expect(footer.locator('[data-planned-link]').filter({ hasText: planned })).toBeVisible()
    }
    // No link on the site is a dead "#".
    expect(await page.locator('a[href="#"]').count()).toBe(0)
    for (const text of ['All systems operational', 'SOC 2 Type II', 'GDPR Compliant', '256-bit SSL']) await expect(footer.getByText(text)).toBeVisible()
    await expect(footer.getByRole('link', { name: 'Twitter' })).toHaveAttribute('href', /^https:/)
    await expect(footer.getByRole('link', { name: 'LinkedIn' })).toHaveAttribute('href', /^https:/)
    await expect(footer.getByRole('link', { name: settings.contact.generalEmail })).toHaveAttribute('href', `mailto:${settings.contact.generalEmail}`)
    await footer.getByRole('link', { name: 'Pricing' }).click()
    await expect(page).toHaveURL('/#pricing')
  })
})
