import { readdirSync } from 'node:fs'
import { E2E } from '../tools/test/e2e-env'
import { expect, test } from './fixtures'
import { currentDocument, publishLocally as publish, unpublishLocally as unpublish } from './local-publish'
import { copy, type Seeded } from './seed-copy'

// What a marketer does in the Studio, done with `npm run content:publish` (same rules, same
// signed webhook) against the production build: no rebuild between a publish and the page.

type Doc = { _id: string; _type: string; sections: ({ _key: string; _type: string } & Record<string, unknown>)[] } & Record<string, unknown>
const stamp = () => Date.now().toString(36)

test.describe.configure({ mode: 'serial' })

test('a page made from sections is live at its address without a rebuild, listed in the sitemap, and 404 once unpublished', async ({ page, request }) => {
  const slug = `launch-${stamp()}`
  const id = `page-${slug}`
  const careers = copy.doc('page-careers', 'page')
  const cards = copy.section(careers, 'cardGridSection')
  // This test's own page: its words are fixtures, published and checked here.
  const title = 'Launch notes'
  const paragraph = 'Written in the Studio.'
  expect((await request.get(`/${slug}`)).status()).toBe(404)
  await publish([
    {
      _id: id,
      _type: 'page',
      title,
      slug: { _type: 'slug', current: slug },
      seo: { description: 'What changed at launch.' },
      sections: [
        { _key: 'h', _type: 'pageHeaderSection', title },
        {
          _key: 'rt',
          _type: 'richTextSection',
          body: [{ _key: 'p', _type: 'block', style: 'normal', markDefs: [], children: [{ _key: 's', _type: 'span', text: paragraph, marks: [] }] }],
        },
        cards,
      ],
    },
  ])
  try {
    await expect.poll(async () => (await request.get(`/${slug}`)).status(), { timeout: 10_000 }).toBe(200)
    await page.goto(`/${slug}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
    await expect(page.getByText(paragraph)).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: cards.title })).toBeVisible()
    await expect(page).toHaveTitle(copy.pageTitle(title))
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', new RegExp(`/${slug}$`))
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', new RegExp(`/og/en/page/${slug}`))
    const breadcrumbs = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}')
    expect(breadcrumbs).toMatchObject({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { position: 1, name: copy.settings.siteName },
        { position: 2, name: title },
      ],
    })
    const image = await request.get(`/og/en/page/${slug}`)
    expect(image.status()).toBe(200)
    expect(image.headers()['content-type']).toBe('image/png')
    await expect.poll(async () => (await (await request.get('/sitemap.xml')).text()).includes(`/${slug}</loc>`)).toBe(true)
  } finally {
    await unpublish([id])
  }
  await expect.poll(async () => (await request.get(`/${slug}`)).status(), { timeout: 10_000 }).toBe(404)
  await page.goto(`/${slug}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.notFound.title)
  expect(await (await request.get('/sitemap.xml')).text()).not.toContain(`/${slug}<`)
})

test('every page has one h1, whatever sections a marketer chooses: the title when none gives one, never a second', async ({ page, request }) => {
  test.slow()
  const slug = `one-heading-${stamp()}`
  const id = `page-${slug}`
  const careers = copy.doc('page-careers', 'page')
  const hero = copy.section(copy.landing, 'heroSection')
  // This test's own page: its words are fixtures, published and checked here.
  const title = 'Notes from the team'
  const text = {
    _key: 'rt',
    _type: 'richTextSection',
    body: [{ _key: 'p', _type: 'block', style: 'normal', markDefs: [], children: [{ _key: 's', _type: 'span', text: 'Rich text alone.', marks: [] }] }],
  }
  const doc = (sections: object[]) => ({ _id: id, _type: 'page', title, slug: { _type: 'slug', current: slug }, sections })
  const headings = async (level: number) => page.getByRole('heading', { level }).allInnerTexts()
  try {
    // A first page made of rich text only: its title is drawn as its main heading, above the text.
    await publish([doc([text])])
    await expect.poll(async () => (await request.get(`/${slug}`)).status(), { timeout: 10_000 }).toBe(200)
    await page.goto(`/${slug}`)
    expect(await headings(1)).toEqual([title])
    await expect(page.getByRole('heading', { level: 1 })).toBeInViewport()

    // A page header placed below the text gives the h1; a hero and a second page header below it draw h2s.
    const header = { ...copy.section(careers, 'pageHeaderSection'), _key: 'ph' }
    await publish([doc([text, header, { ...hero, _key: 'hero' }, { ...header, _key: 'ph2', title: 'A second header' }])])
    await expect.poll(async () => (await page.goto(`/${slug}`), await headings(1)), { timeout: 10_000 }).toEqual([header.title])
    expect(await headings(2)).toEqual(expect.arrayContaining([[hero.title, hero.titleHighlight].join(' '), 'A second header']))
  } finally {
    await unpublish([id])
  }
})

test("the landing page's sections can be reordered and hidden", async ({ page }) => {
  // Two publishes through the CLI (tsx start-up each) and a poll: on two busy cores that outgrows 30 s.
  test.slow()
  const original = await currentDocument<Doc>('landingPage')
  const faq = original.sections.find((section) => section._type === 'faqSection')!
  const logos = original.sections.find((section) => section._type === 'logoStripSection')!
  const reordered = [
    faq,
    ...original.sections.filter((section) => section !== faq).map((section) => (section === logos ? { ...section, hidden: true } : section)),
  ]
  try {
    await publish([{ ...original, sections: reordered }])
    const ids = () => page.locator('main > section').evaluateAll((sections) => sections.map((s) => s.id || s.getAttribute('aria-labelledby')))
    await expect
      .poll(async () => (await page.goto('/'), await ids()), { timeout: 10_000 })
      .toEqual(['faq', 'hero-title', 'how-it-works', 'features', 'cards-title', 'audiences', 'pricing', 'cta-title'])
    // Anchors still work wherever the section now sits.
    await page.goto('/#pricing')
    await expect(page.locator('#pricing')).toBeInViewport()
  } finally {
    await publish([original])
  }
})

test('a published redirect answers 308 (permanent) or 307 (temporary) without a rebuild, to a page by its current address, with one Location', async ({
  request,
}) => {
  // Three publishes, each re-rendering the pages they touch: more than the default 30 s on a busy machine.
  test.slow()
  const source = `/old-${stamp()}`
  expect((await request.get(source, { maxRedirects: 0 })).status()).toBe(404)
  const redirect = (permanent: boolean) => ({
    _id: `redirect-${source.slice(1)}`,
    _type: 'redirect',
    source,
    destination: { kind: 'page', page: { _type: 'reference', _ref: 'page-privacy' } },
    permanent,
  })
  // Every answer, the first after a publish included: a second Location header is a byte sent
  // twice, and some clients refuse such a response.
  const locations: string[][] = []
  const status = async () => {
    const response = await request.get(source, { maxRedirects: 0 })
    if (response.status() !== 404)
      locations.push(
        response
          .headersArray()
          .filter((header) => header.name.toLowerCase() === 'location')
          .map((header) => header.value),
      )
    return response.status()
  }
  try {
    await publish([redirect(true)])
    await expect.poll(status, { timeout: 10_000 }).toBe(308)
    expect(await status()).toBe(308)
    await publish([redirect(false)])
    await expect.poll(status, { timeout: 10_000 }).toBe(307)
    expect(await status()).toBe(307)
    expect(locations.length).toBeGreaterThanOrEqual(4)
    for (const location of locations) expect(location).toEqual(['/privacy'])
    // The query the visitor came with goes along (a campaign's tags, its version).
    expect((await request.get(`${source}?utm_campaign=spring`, { maxRedirects: 0 })).headers().location).toBe('/privacy?utm_campaign=spring')
    const followed = await request.get(source)
    expect(followed.url()).toMatch(/\/privacy$/)
  } finally {
    await unpublish([`redirect-${source.slice(1)}`])
  }
  await expect.poll(async () => (await request.get(source, { maxRedirects: 0 })).status(), { timeout: 10_000 }).toBe(404)
})

test('the Studio rules refuse a redirect loop and a page on a path the code owns', async () => {
  const loop = [
    { _id: 'redirect-loop-a', _type: 'redirect', source: '/loop-a', destination: { kind: 'path', path: '/loop-b' }, permanent: true },
    { _id: 'redirect-loop-b', _type: 'redirect', source: '/loop-b', destination: { kind: 'path', path: '/loop-a' }, permanent: true },
  ]
  await expect(publish(loop)).rejects.toThrow(/the Studio would refuse this content[\s\S]*\/loop-a → \/loop-b → \/loop-a is a loop/)
  const studio = { ...copy.doc('page-careers', 'page'), _id: 'page-studio', slug: { _type: 'slug', current: 'studio' } }
  await expect(publish([studio])).rejects.toThrow(/"studio" is a path the site's code owns/)
})

test('a renamed page moves: the old address redirects to it (e2e/moved-pages.spec.ts has the rest), menus follow it to the new one', async ({
  page,
  request,
}) => {
  const original = await currentDocument<Doc & { slug: { current: string } }>('page-careers')
  const slug = `jobs-${stamp()}`
  try {
    await publish([{ ...original, slug: { _type: 'slug', current: slug } }])
    await expect.poll(async () => (await request.get(`/${slug}`)).status(), { timeout: 10_000 }).toBe(200)
    const old = await request.get('/careers', { maxRedirects: 0 })
    expect([old.status(), old.headers().location]).toEqual([308, `/${slug}`])
    await page.goto('/about')
    const careers = copy.footerLabel((link) => link.kind === 'page' && link.page!._ref === 'page-careers')
    await expect(page.getByRole('contentinfo').getByRole('link', { name: careers })).toHaveAttribute('href', `/${slug}`)
  } finally {
    await publish([original])
  }
  await expect.poll(async () => (await request.get('/careers')).status(), { timeout: 10_000 }).toBe(200)
  // Moved back, it keeps the address it left; removed from its old addresses, that one is free, and
  // the suite's other specs find the page as seeded.
  expect((await request.get(`/${slug}`, { maxRedirects: 0 })).headers().location).toBe('/careers')
  await publish([{ ...original, previousSlugs: [] }])
  expect((await request.get(`/${slug}`, { maxRedirects: 0 })).status()).toBe(404)
})

test.describe('legal pages', () => {
  for (const link of copy.settings.footer.legalLinks) {
    const legal = copy.deref(link.page!)
    const path = `/${legal.slug.current}`
    const header = copy.section(legal, 'pageHeaderSection')
    test(`the footer's ${link.label} opens ${path}, with its date and contents`, async ({ page }) => {
      await page.goto('/')
      await page.getByRole('contentinfo').getByRole('link', { name: link.label, exact: true }).click()
      await expect(page).toHaveURL(path)
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(header.title)
      await expect(page.getByTestId('last-updated')).toHaveText(copy.lastUpdated(header.lastUpdated!))
      const contents = page.getByRole('navigation', { name: copy.settings.labels.tableOfContents })
      await expect(contents).toBeVisible()
      const first = contents.getByRole('link').first()
      const target = (await first.getAttribute('href'))!
      await first.click()
      await expect(page).toHaveURL(new RegExp(`${path}${target}$`))
      await expect(page.locator(target)).toBeInViewport()
    })
  }

  test('the privacy policy names the contact address from Site settings and links to the cookie policy', async ({ page }) => {
    const { contact } = copy.settings
    await page.goto('/privacy')
    await expect(page.getByRole('main')).toContainText(contact.generalEmail)
    await expect(page.getByRole('main')).not.toContainText('{{')
    await page
      .getByRole('main')
      .getByRole('link', { name: linkTextTo(copy.doc('page-privacy', 'page'), 'page-cookies') })
      .click()
    await expect(page).toHaveURL('/cookies')
    // not seed copy: the exact storage key the code uses, which the cookie policy must name.
    await expect(page.getByRole('main')).toContainText('consent:analytics')
  })

  test("the waitlist form's privacy note links to the privacy policy", async ({ page }) => {
    await page.goto('/waitlist')
    await page.getByRole('main').getByRole('link', { name: copy.waitlist.form.privacyLink.label }).click()
    await expect(page).toHaveURL('/privacy')
  })

  test.describe('before the visitor chooses', () => {
    test.use({ consent: null })
    test('the consent banner links to the cookie policy', async ({ page }) => {
      await page.goto('/')
      const { consent } = copy.settings
      const banner = page.getByRole('region', { name: consent.title })
      await expect(banner).toBeVisible()
      await banner.getByRole('link', { name: consent.policyLink.label }).click()
      await expect(page).toHaveURL('/cookies')
    })
  })
})

test('an unknown single-segment or nested path is the CMS 404 with status 404', async ({ page }) => {
  for (const path of ['/no-such-page', '/privacy/extra', '/Privacy']) {
    const response = await page.goto(path)
    expect(response?.status(), path).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.notFound.title)
  }
})

test('requests for random addresses leave nothing behind on the server’s disk', async ({ request }) => {
  // Any address reaches the pages route: if each answer were cached on disk (or cost a query of
  // its own, cached per address), anyone with curl could fill the server's disk.
  const files = () => countFiles(E2E.distDir)
  const before = files()
  const stamp = Date.now().toString(36)
  for (let i = 0; i < 60; i++) {
    const path = i % 2 ? `/random-${stamp}-${i}` : `/random/${stamp}/${i}`
    expect((await request.get(path)).status(), path).toBe(404)
  }
  expect(files()).toBe(before)
})

/** The words of the first link in a page's rich text that leads to the page `targetId`. */
function linkTextTo(page: Seeded<'page'>, targetId: string): string {
  for (const section of page.sections) {
    if (section._type !== 'richTextSection') continue
    for (const block of section.body) {
      if (block._type !== 'block' || !('markDefs' in block)) continue
      const mark = block.markDefs!.find((definition) => definition._type === 'pageLink' && definition.page._ref === targetId)
      const span = mark && block.children!.find((child) => 'marks' in child && child.marks!.includes(mark._key))
      if (span) return span.text!
    }
  }
  throw new Error(`seed document "${page._id}" has no rich-text link to ${targetId}`)
}

function countFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length
}
