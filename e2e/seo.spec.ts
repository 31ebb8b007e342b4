import { E2E } from '../tools/test/e2e-env'
import { expect, test } from './fixtures'
import { copy } from './seed-copy'

const site = `http://localhost:${E2E.sitePort}`

test('sitemap.xml lists every page at the configured address, in each language it is published in', async ({ request }) => {
  const xml = await (await request.get('/sitemap.xml')).text()
  const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
  type Addressed = { language?: string; slug: { current: string } }
  const at = (doc: Addressed, path: string) => `${site}${doc.language === 'de' ? '/de' : ''}${path}`
  const ofType = (type: string) => copy.documents.filter((doc) => doc._type === type) as unknown as Addressed[]
  const fixed = ['/', '/about', '/waitlist', '/blog', '/changelog'].flatMap((path) => [`${site}${path}`, `${site}/de${path === '/' ? '' : path}`])
  const pages = ofType('page').map((doc) => at(doc, `/${doc.slug.current}`))
  const posts = ofType('post').map((doc) => at(doc, `/blog/${doc.slug.current}`))
  const categories = ofType('category').map((doc) => at(doc, `/blog/category/${doc.slug.current}`))
  expect(urls.slice(0, 2)).toEqual([`${site}/`, `${site}/de`])
  expect([...urls].sort()).toEqual([...fixed, ...pages, ...posts, ...categories].sort())
})

test('robots.txt keeps the Studio and the API out and points at the sitemap', async ({ request }) => {
  const robots = await (await request.get('/robots.txt')).text()
  expect(robots).toContain('Disallow: /studio')
  expect(robots).toContain('Disallow: /api/')
  expect(robots).toContain(`Sitemap: ${site}/sitemap.xml`)
})

// The site's title on the landing page; elsewhere each page's own SEO title (or its title) with the site's name.
for (const [path, key, title] of [
  ['/', 'home', copy.settings.seo.title],
  ['/about', 'about', copy.pageTitle(copy.about.seo!.title!)],
  ['/waitlist', 'waitlist', copy.pageTitle(copy.waitlist.seo!.title!)],
  ['/privacy', 'page/privacy', copy.pageTitle(copy.doc('page-privacy', 'page').seo!.title!)],
  ['/careers', 'page/careers', copy.pageTitle(copy.doc('page-careers', 'page').seo!.title!)],
] as const) {
  test(`${path}: title, description, canonical URL and a share image`, async ({ page, request }) => {
    await page.goto(path)
    await expect(page).toHaveTitle(title)
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{40,}/)
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${site}${path === '/' ? '' : path}`)
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title)
    const image = await page.locator('meta[property="og:image"]').getAttribute('content')
    expect(image).toBe(`${site}/og/en/${key}`)
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image')
    const png = await request.get(new URL(image!).pathname)
    expect(png.status()).toBe(200)
    expect(png.headers()['content-type']).toBe('image/png')
    expect((await png.body()).subarray(1, 4).toString()).toBe('PNG')
  })
}

test('the landing page describes the organisation and the product with an offer per tier', async ({ page }) => {
  const { settings } = copy
  const tiers = copy.section(copy.landing, 'pricingSection').tiers.map((reference) => copy.deref(reference))
  await page.goto('/')
  const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}')
  const [organization, product] = data['@graph']
  expect(data['@context']).toBe('https://schema.org')
  expect(organization).toMatchObject({ '@type': 'Organization', name: settings.siteName, url: site, email: settings.contact.generalEmail })
  expect(product).toMatchObject({ '@type': 'Product', name: settings.siteName })
  expect(product.offers).toEqual(
    tiers.map((tier) =>
      expect.objectContaining({
        '@type': 'Offer',
        name: tier.name,
        price: tier.price.toFixed(2),
        priceCurrency: tier.currency,
        availability: tier.availability === 'available' ? 'https://schema.org/InStock' : 'https://schema.org/PreOrder',
      }),
    ),
  )
})

test('a page made in the Studio carries its breadcrumb for search results', async ({ page }) => {
  const privacy = copy.doc('page-privacy', 'page')
  await page.goto('/privacy')
  const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}')
  expect(data).toEqual({
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: copy.settings.siteName, item: `${site}/` },
      { '@type': 'ListItem', position: 2, name: privacy.title, item: `${site}/privacy` },
    ],
  })
})

test('the Studio is not indexed', async ({ page }) => {
  await page.goto('/studio')
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
})
