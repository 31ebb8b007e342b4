import { expect, test } from './fixtures'
import { startTrialLinks, tryDemoButtons } from './landing-controls'
import { copy, withValues } from './seed-copy'

const { settings } = copy
const nav = settings.navigation
const features = copy.navLabel('/#features')
const pricing = copy.navLabel('/#pricing')
const about = copy.navLabel('/about')

test.describe('top navigation', () => {
  test('Features and Pricing jump to their sections on the landing page', async ({ page }) => {
    await page.goto('/about')
    const nav = page.getByRole('banner').getByRole('navigation')
    await nav.getByRole('link', { name: features }).click()
    await expect(page).toHaveURL('/#features')
    await expect(page.locator('#features')).toBeInViewport()
    await nav.getByRole('link', { name: pricing }).click()
    await expect(page).toHaveURL('/#pricing')
    await expect(page.locator('#pricing')).toBeInViewport()
  })

  test('the Resources dropdown opens, leads to About, and closes with Escape returning focus', async ({ page }) => {
    await page.goto('/')
    const toggle = page.getByRole('banner').getByRole('button', { name: nav.resourcesLabel })
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    const aboutLink = page.getByRole('banner').getByRole('link', { name: about })
    await expect(aboutLink).toBeHidden()

    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await expect(aboutLink).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(aboutLink).toBeHidden()
    await expect(toggle).toBeFocused()

    // Keyboard only: Enter opens, Tab reaches the link, Enter follows it.
    await page.keyboard.press('Enter')
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await page.keyboard.press('Tab')
    await expect(aboutLink).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL('/about')
  })

  test('a click outside closes the dropdown', async ({ page }) => {
    await page.goto('/')
    const toggle = page.getByRole('banner').getByRole('button', { name: nav.resourcesLabel })
    await toggle.click()
    await page.getByRole('heading', { level: 1 }).click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  })

  test('Sign In goes to the app site and Start Free Trial to the waitlist', async ({ page }) => {
    await page.goto('/')
    const banner = page.getByRole('banner')
    await expect(banner.getByRole('link', { name: nav.signInLabel })).toHaveAttribute('href', settings.appUrl)
    await startTrialLinks.navigation(page).click()
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
    await tryDemoButtons.navigation(page).click()
    await tryDemoButtons.hero(page).click()
    await tryDemoButtons.cta(page).click()
    expect(await page.evaluate(() => (window as unknown as { seenToggles: string[] }).seenToggles)).toEqual(['navigation', 'hero', 'cta'])
  })
})

test.describe('landing page', () => {
  test('shows the sections in the spec order', async ({ page }) => {
    await page.goto('/')
    const ids = await page.locator('main > section').evaluateAll((sections) => sections.map((s) => s.id || s.getAttribute('aria-labelledby')))
    // The product spec's order, by anchor: what this test is about.
    expect(ids).toEqual(['hero-title', 'logos-title', 'how-it-works', 'features', 'cards-title', 'audiences', 'pricing', 'faq', 'cta-title'])
  })

  test('pricing: each tier shows its price, allowance, terms and features; a coming-soon tier is disabled, an available one leads to the waitlist', async ({
    page,
  }) => {
    const pricingSection = copy.section(copy.landing, 'pricingSection', 'pricing')
    const { labels } = pricingSection
    const tiers = pricingSection.tiers.map((reference) => copy.deref(reference))
    expect(tiers.map((tier) => tier.availability)).toEqual(expect.arrayContaining(['comingSoon', 'available']))
    await page.goto('/#pricing')
    for (const tier of tiers) {
      const card = page.locator(`[data-tier="${tier.name}"]`)
      await expect(card.getByTestId('tier-price')).toHaveText(copy.price(tier, labels.free))
      await expect(card.getByText(withValues(tier.insightsLabel, { n: tier.insightsPerMonth }))).toBeVisible()
      for (const feature of tier.features) await expect(card.getByRole('listitem').filter({ hasText: feature })).toBeVisible()
      if (tier.price > 0) await expect(card).toContainText(tier.billingInterval === 'year' ? labels.perYear : labels.perMonth)
      const terms = [
        tier.trialDays > 0 && withValues(labels.trial, { n: tier.trialDays }),
        'noCreditCard' in tier && tier.noCreditCard && labels.noCreditCard,
        'cancelAnytime' in tier && tier.cancelAnytime && labels.cancelAnytime,
      ]
      if (tier.trialDays > 0) await expect(card).toContainText(terms.filter(Boolean).join(' · '))
      if (tier.availability === 'comingSoon') await expect(card.getByRole('button', { name: tier.ctaLabel })).toBeDisabled()
    }
    const available = tiers.find((tier) => tier.availability === 'available')!
    await page.locator(`[data-tier="${available.name}"]`).getByRole('link', { name: available.ctaLabel }).click()
    await expect(page).toHaveURL('/waitlist')
  })

  test('the hero and closing calls to action lead to the waitlist', async ({ page }) => {
    await page.goto('/')
    await startTrialLinks.hero(page).click()
    await expect(page).toHaveURL('/waitlist')
    await page.goto('/')
    await startTrialLinks.cta(page).click()
    await expect(page).toHaveURL('/waitlist')
  })

  test('each FAQ question opens with the keyboard and shows its answer', async ({ page }) => {
    await page.goto('/')
    for (const item of copy.section(copy.landing, 'faqSection').items) {
      await page.locator('summary', { hasText: copy.withTokens(item.question) }).focus()
      await page.keyboard.press('Enter')
      await expect(page.getByText(copy.withTokens(item.answer))).toBeVisible()
    }
  })

  test('sample testimonial and logos are labelled as samples', async ({ page }) => {
    await page.goto('/')
    await expect(page.locator('section[aria-labelledby="cta-title"] figcaption')).toContainText(settings.labels.sample)
    await expect(page.locator('#logos-title')).toContainText(settings.labels.sample)
  })
})

test.describe('footer', () => {
  test('every link goes where the content says, and planned pages are not links', async ({ page }) => {
    await page.goto('/about')
    const footer = page.getByRole('contentinfo')
    const links = [...settings.footer.columns.flatMap((column) => column.links), ...settings.footer.legalLinks]
    // Each kind of destination the Studio offers is in the seed's footer: otherwise this proves less.
    expect(new Set(links.map((link) => link.kind))).toEqual(new Set(['internal', 'page', 'email', 'demo', 'planned']))
    for (const link of links) {
      const name = link.label
      if (link.kind === 'internal') await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', link.path!)
      // Pages made in the Studio, linked by reference: at their slug.
      if (link.kind === 'page') await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', `/${copy.deref(link.page!).slug.current}`)
      if (link.kind === 'email') await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', `mailto:${link.email}`)
      if (link.kind === 'demo') await expect(footer.getByRole('button', { name })).toBeVisible()
      if (link.kind === 'planned') {
        await expect(footer.getByRole('link', { name })).toHaveCount(0)
        await expect(footer.locator('[data-planned-link]').filter({ hasText: name })).toBeVisible()
      }
    }
    // No link on the site is a dead "#".
    expect(await page.locator('a[href="#"]').count()).toBe(0)
    for (const text of [settings.footer.statusText, ...('badges' in settings.footer ? settings.footer.badges! : [])])
      await expect(footer.getByText(text)).toBeVisible()
    // not seed copy: the social links' names are the code's own.
    await expect(footer.getByRole('link', { name: 'Twitter' })).toHaveAttribute('href', settings.contact.twitterUrl)
    // not seed copy: the social links' names are the code's own.
    await expect(footer.getByRole('link', { name: 'LinkedIn' })).toHaveAttribute('href', settings.contact.linkedinUrl)
    await expect(footer.getByRole('link', { name: settings.contact.generalEmail })).toHaveAttribute('href', `mailto:${settings.contact.generalEmail}`)
    await footer.getByRole('link', { name: links.find((link) => 'path' in link && link.path === '/#pricing')!.label }).click()
    await expect(page).toHaveURL('/#pricing')
  })
})
