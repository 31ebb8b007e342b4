import { E2E } from '../tools/test/e2e-env'
import { expect, seedDoc, test } from './fixtures'

const site = `http://localhost:${E2E.sitePort}`

test('sitemap.xml lists every page at the configured address', async ({ request }) => {
  const xml = await (await request.get('/sitemap.xml')).text()
  const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
  const pages = ['careers', 'cookies', 'gdpr', 'privacy', 'terms'].map((slug) => `${site}/${slug}`)
  expect(urls).toEqual([`${site}/`, `${site}/about`, `${site}/waitlist`, ...pages])
})

test('robots.txt keeps the Studio and the API out and points at the sitemap', async ({ request }) => {
  const robots = await (await request.get('/robots.txt')).text()
  expect(robots).toContain('Disallow: /studio')
  expect(robots).toContain('Disallow: /api/')
  expect(robots).toContain(`Sitemap: ${site}/sitemap.xml`)
})

for (const [path, key, title] of [
  ['/', 'home', 'Heardly: AI user interviews, insights in Slack'],
  ['/about', 'about', 'About us | Heardly'],
  ['/waitlist', 'waitlist', 'Join the waitlist | Heardly'],
  ['/privacy', 'page/privacy', 'Privacy Policy | Heardly'],
  ['/careers', 'page/careers', 'Careers | Heardly'],
] as const) {
  test(`${path}: title, description, canonical URL and a share image`, async ({ page, request }) => {
    await page.goto(path)
    await expect(page).toHaveTitle(title)
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{40,}/)
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${site}${path === '/' ? '' : path}`)
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title)
    const image = await page.locator('meta[property="og:image"]').getAttribute('content')
    expect(image).toBe(`${site}/og/${key}`)
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image')
    const png = await request.get(new URL(image!).pathname)
    expect(png.status()).toBe(200)
    expect(png.headers()['content-type']).toBe('image/png')
    expect((await png.body()).subarray(1, 4).toString()).toBe('PNG')
  })
}

test('the landing page describes the organisation and the product with an offer per tier', async ({ page }) => {
  const settings = seedDoc<{ siteName: string; contact: { generalEmail: string } }>('siteSettings')
  await page.goto('/')
  const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}')
  const [organization, product] = data['@graph']
  expect(data['@context']).toBe('https://schema.org')
  expect(organization).toMatchObject({ '@type': 'Organization', name: settings.siteName, url: site, email: settings.contact.generalEmail })
  expect(product).toMatchObject({ '@type': 'Product', name: settings.siteName })
  expect(product.offers).toEqual([
    expect.objectContaining({ '@type': 'Offer', name: 'Starter', price: '0.00', priceCurrency: 'USD', availability: 'https://schema.org/PreOrder' }),
    expect.objectContaining({ '@type': 'Offer', name: 'Pro Plan', price: '29.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' }),
  ])
})

test('a page made in the Studio carries its breadcrumb for search results', async ({ page }) => {
  await page.goto('/privacy')
  const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}')
  expect(data).toEqual({
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: 'Heardly', item: `${site}/` },
      { '@type': 'ListItem', position: 2, name: 'Privacy Policy', item: `${site}/privacy` },
    ],
  })
})

test('the Studio is not indexed', async ({ page }) => {
  await page.goto('/studio')
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
})
