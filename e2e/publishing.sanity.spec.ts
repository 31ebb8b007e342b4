import { readFile, writeFile } from 'node:fs/promises'
import { E2E_SANITY } from '../tools/test/e2e-env'
import { STANDIN_CONTROL_PATH } from '../tools/sanity-standin/sanity-standin'
import { expect, test } from './fixtures'
import { copy } from './seed-copy'

// These run against a build whose content comes from a stand-in for Sanity's query API
// (tools/test/e2e.ts starts it), revalidating every few seconds.
const standIn = `http://127.0.0.1:${E2E_SANITY.standInPort}`
/** The stand-in's draft of the landing page (tools/test/e2e.ts writes it): a fixture, not seed copy. */
const draftHeadline = 'A draft headline only editors see.'
const headline = copy.section(copy.landing, 'heroSection').title

async function setOutage(failing: boolean) {
  await fetch(`${standIn}${STANDIN_CONTROL_PATH}`, { method: 'POST', body: JSON.stringify({ failing }) })
}

async function editDataset(from: string, to: string) {
  const text = await readFile(E2E_SANITY.datasetPath, 'utf8')
  await writeFile(E2E_SANITY.datasetPath, text.split(from).join(to))
}

test.afterEach(() => setOutage(false))

test('pages are built from Sanity, published content only', async ({ page }) => {
  const response = await page.goto('/')
  expect(response?.status()).toBe(200)
  await expect(page.getByRole('heading', { level: 1 })).toContainText(headline)
  await expect(page.getByText(draftHeadline)).toHaveCount(0)
  // not seed copy: draft mode's own bar, drawn by the code.
  await expect(page.getByRole('link', { name: 'Draft preview: leave' })).toHaveCount(0)
})

test('the time-based revalidation picks up a change without any webhook (the safety net)', async ({ request }) => {
  const fresh = `Pricing that follows Sanity ${Date.now()}`
  // tools/test/e2e.ts writes the stand-in's dataset with JSON.stringify: no space after the colon.
  const seeded = `"title":${JSON.stringify(copy.section(copy.landing, 'pricingSection').title)}`
  await editDataset(seeded, `"title":"${fresh}"`)
  try {
    await expect.poll(async () => (await (await request.get('/')).text()).includes(fresh), { timeout: 20_000, intervals: [1000] }).toBe(true)
  } finally {
    await editDataset(`"title":"${fresh}"`, seeded)
  }
  await expect.poll(async () => (await (await request.get('/')).text()).includes(fresh), { timeout: 20_000, intervals: [1000] }).toBe(false)
})

test('when Sanity is down, the last good page is still served, unchanged, with 200', async ({ request }) => {
  const before = await (await request.get('/about')).text()
  await setOutage(true)
  // Past the revalidation period: each request now tries to refresh, and fails.
  await new Promise((resolve) => setTimeout(resolve, (E2E_SANITY.revalidateSeconds + 1) * 1000))
  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await request.get('/about')
    expect(response.status()).toBe(200)
    const html = await response.text()
    expect(html).toContain(copy.section(copy.about, 'pageHeaderSection').title)
    expect(html.match(/<main[\s\S]*<\/main>/)?.[0]).toBe(before.match(/<main[\s\S]*<\/main>/)?.[0])
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
})

test.describe('draft preview', () => {
  test('is refused without the secret, or with a wrong one', async ({ request }) => {
    expect((await request.get('/api/draft-mode/enable', { maxRedirects: 0 })).status()).toBe(401)
    expect((await request.get('/api/draft-mode/enable?sanity-preview-secret=guess', { maxRedirects: 0 })).status()).toBe(401)
  })

  test('with the Studio secret opens only a page of this site, whatever path the link names', async ({ request }) => {
    for (const [pathname, expected] of [
      ['/.//evil.example', '/evil.example'],
      ['//evil.example/x', '/'],
      ['https://evil.example/', '/'],
      ['/about', '/about'],
    ] as const) {
      const response = await request.get(
        `/api/draft-mode/enable?sanity-preview-secret=${E2E_SANITY.previewSecret}&sanity-preview-pathname=${encodeURIComponent(pathname)}`,
        { maxRedirects: 0 },
      )
      expect(response.status(), pathname).toBe(307)
      const location = response.headers().location!
      expect(location, pathname).toBe(expected)
      expect(new URL(location, 'https://heardly.example').origin).toBe('https://heardly.example')
    }
  })

  test('with the Studio secret shows drafts and overlays, and can be left', async ({ page, browser }) => {
    await page.goto(`/api/draft-mode/enable?sanity-preview-secret=${E2E_SANITY.previewSecret}&sanity-preview-pathname=/`)
    await expect(page).toHaveURL('/')
    await expect(page.getByRole('heading', { level: 1 })).toContainText(draftHeadline)
    // not seed copy: draft mode's own bar, drawn by the code.
    const leave = page.getByRole('link', { name: 'Draft preview: leave' })
    await expect(leave).toBeVisible()

    // Another visitor, at the same moment, sees the published site.
    const visitor = await browser.newPage()
    await visitor.goto('/')
    await expect(visitor.getByRole('heading', { level: 1 })).toContainText(headline)
    await expect(visitor.getByText(draftHeadline)).toHaveCount(0)
    await visitor.close()

    await leave.click()
    await expect(page).toHaveURL('/')
    await expect(page.getByRole('heading', { level: 1 })).toContainText(headline)
  })

  test('shows a page that was never published at its own address; visitors get the 404', async ({ page, request }) => {
    expect((await request.get('/coming-soon')).status()).toBe(404)
    // A cookie of draft mode's name with any value but the build's own is a visitor's: the 404.
    for (const value of ['', 'forged', 'a'.repeat(64)])
      expect((await request.get('/coming-soon', { headers: { cookie: `__prerender_bypass=${value}` } })).status(), value).toBe(404)
    const draft = await page.goto(`/api/draft-mode/enable?sanity-preview-secret=${E2E_SANITY.previewSecret}&sanity-preview-pathname=/coming-soon`)
    await expect(page).toHaveURL('/coming-soon')
    // No shared cache in front of the site may keep a draft (docs/engineers.md, "Shared caches").
    expect(draft?.headers()['cache-control']).toMatch(/\bprivate\b/)
    expect(draft?.headers()['cache-control']).toMatch(/\bno-store\b/)
    // tools/test/e2e.ts drafts this page as a copy of Careers.
    await expect(page.getByRole('heading', { level: 1 })).toContainText(copy.section(copy.doc('page-careers', 'page'), 'pageHeaderSection').title)
    // not seed copy: draft mode's own bar, drawn by the code.
    await page.getByRole('link', { name: 'Draft preview: leave' }).click()
    expect((await request.get('/coming-soon')).status()).toBe(404)
  })
})
