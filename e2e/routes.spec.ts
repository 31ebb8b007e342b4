import { expect, test } from './fixtures'
import { copy } from './seed-copy'

test.describe('routes', () => {
  for (const [path, heading] of [
    ['/', copy.section(copy.landing, 'heroSection').title],
    ['/about', copy.section(copy.about, 'pageHeaderSection').title],
    ['/waitlist', copy.waitlist.title],
  ] as const) {
    test(`${path} answers 200 with its page`, async ({ page, consoleErrors }) => {
      const response = await page.goto(path)
      expect(response?.status()).toBe(200)
      await expect(page.getByRole('heading', { level: 1 })).toContainText(heading)
      await expect(page.getByRole('banner')).toBeVisible()
      await expect(page.getByRole('contentinfo')).toBeVisible()
      expect(consoleErrors).toEqual([])
    })
  }

  test('an unknown path is the 404 page, with status 404, a way home and the path in the console', async ({ page, consoleErrors }) => {
    const response = await page.goto('/no/such/page')
    expect(response?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1, name: copy.notFound.title })).toBeVisible()
    await expect.poll(() => consoleErrors.join('\n')).toContain('/no/such/page')
    await page.getByRole('link', { name: copy.notFound.homeLabel }).click()
    await expect(page).toHaveURL('/')
  })

  test.describe('with JavaScript off', () => {
    test.use({ javaScriptEnabled: false })
    test('an unknown path is the 404 drawn by the server: its words, status 404, noindex and a way home', async ({ page }) => {
      for (const path of ['/no-such-page', '/no/such/page']) {
        const response = await page.goto(path)
        expect(response?.status(), path).toBe(404)
        await expect(page.getByRole('heading', { level: 1, name: copy.notFound.title })).toBeVisible()
        await expect(page.getByText(copy.notFound.text)).toBeVisible()
        await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
        await page.getByRole('link', { name: copy.notFound.homeLabel }).click()
        await expect(page).toHaveURL('/')
      }
    })
  })

  test("the 404 route's own address is the 404 too", async ({ request }) => {
    expect((await request.get('/not-found')).status()).toBe(404)
  })

  test('the 404 page asks search engines not to index it', async ({ page }) => {
    await page.goto('/missing')
    await expect(page.locator('meta[name="robots"]')).toHaveCount(1)
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
  })

  test('the Studio route explains how to connect a Sanity project when none is configured', async ({ page }) => {
    const response = await page.goto('/studio')
    expect(response?.status()).toBe(200)
    // not seed copy: the Studio route's own setup page, drawn when no Sanity project is configured.
    await expect(page.getByRole('heading', { name: 'Connect a Sanity project to edit content' })).toBeVisible()
  })

  test('pages carry their titles and descriptions from content', async ({ page }) => {
    const { settings } = copy
    await page.goto('/')
    await expect(page).toHaveTitle(settings.seo.title)
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', settings.seo.description)
    await page.goto('/about')
    await expect(page).toHaveTitle(copy.pageTitle(copy.about.seo!.title!))
  })
})
