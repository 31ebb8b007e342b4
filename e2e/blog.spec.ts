import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { E2E } from '../tools/test/e2e-env'
import { expect, test } from './fixtures'
import { publishLocally as publish, unpublishLocally as unpublish } from './local-publish'
import { copy } from './seed-copy'

const site = `http://localhost:${E2E.sitePort}`
const articles = copy.posts.filter((post) => post.kind !== 'changelog')
const [entry] = copy.posts.filter((post) => post.kind === 'changelog')
const parser = new XMLParser({ ignoreAttributes: false })

/** The item links of a feed, read by an XML parser after checking it is well-formed. */
async function feedLinks(request: import('@playwright/test').APIRequestContext, path: string): Promise<string[]> {
  const answer = await request.get(path)
  expect(answer.status()).toBe(200)
  expect(answer.headers()['content-type']).toContain('application/rss+xml')
  const xml = await answer.text()
  expect(XMLValidator.validate(xml)).toBe(true)
  const channel = parser.parse(xml).rss.channel
  return [channel.item ?? []].flat().map((item: { link: string }) => item.link)
}

const sitemapUrls = async (request: import('@playwright/test').APIRequestContext) =>
  [...(await (await request.get('/sitemap.xml')).text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])

test('/blog lists the articles newest first, each linking to its page, with the categories as real addresses', async ({ page }) => {
  await page.goto('/blog')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.blog.title)
  const titles = page.locator('article h2 a')
  await expect(titles).toHaveText(articles.map((post) => post.title))
  await titles.first().click()
  await expect(page).toHaveURL(`/blog/${articles[0]!.slug.current}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(articles[0]!.title)

  await page.goto('/blog')
  const research = copy.deref(articles.at(-1)!.categories![0]!)
  await page.getByRole('navigation', { name: copy.blog.labels.categories }).getByRole('link', { name: research.title }).click()
  await expect(page).toHaveURL(`/blog/category/${research.slug.current}`)
  await expect(page.getByRole('link', { name: research.title, exact: true }).first()).toHaveAttribute('aria-current', 'page')
  const inCategory = articles.filter((post) => post.categories?.some((ref) => ref._ref === articles.at(-1)!.categories![0]!._ref))
  await expect(page.locator('article h2 a')).toHaveText(inCategory.map((post) => post.title))
})

test('a post: title, authors, reading time, its text drawn by the server, code coloured without a script, and BlogPosting data', async ({ page, browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const plain = await context.newPage()
  await plain.goto(`${site}/blog/${entry!.slug.current}`)
  await expect(plain.getByRole('heading', { level: 1 })).toHaveText(entry!.title)
  const author = copy.deref(entry!.authors![0]!)
  await expect(plain.getByText(author.name)).toBeVisible()
  await expect(plain.getByText(/\d+ min read/)).toBeVisible() // not seed copy: the reading-time label with its number filled in
  const code = plain.locator('pre.shiki').first()
  await expect(code).toBeVisible()
  // Coloured on the server: the spans carry their colours with no script on the page.
  expect(await code.locator('span[style*="color"]').count()).toBeGreaterThan(3)
  await context.close()

  await page.goto(`/blog/${articles[0]!.slug.current}`)
  const data = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!)
  expect(data).toMatchObject({
    '@type': 'BlogPosting',
    headline: articles[0]!.title,
    datePublished: articles[0]!.publishedAt,
    url: `${site}/blog/${articles[0]!.slug.current}`,
  })
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${site}/blog/${articles[0]!.slug.current}`)
  const image = await page.locator('meta[property="og:image"]').getAttribute('content')
  expect(image).toBe(`${site}/og/en/post/${articles[0]!.slug.current}`)
  const png = await page.request.get(new URL(image!).pathname)
  expect(png.headers()['content-type']).toBe('image/png')
})

test('every page names both feeds in its head, and each feed is well-formed RSS with its own posts', async ({ page, request }) => {
  for (const path of ['/', '/waitlist', `/blog/${articles[0]!.slug.current}`]) {
    await page.goto(path)
    await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]')).toHaveCount(2)
  }
  expect(await feedLinks(request, '/blog/feed.xml')).toEqual(articles.map((post) => `${site}/blog/${post.slug.current}`))
  expect(await feedLinks(request, '/changelog/feed.xml')).toEqual([`${site}/blog/${entry!.slug.current}`])
})

test('a post published and then unpublished: on /blog, its page, the feed and the sitemap without a rebuild; then gone, a 404', async ({ page, request }) => {
  const slug = `e2e-post-${Date.now()}`
  const title = `We shipped something ${slug}` // not seed copy: this test's own post
  const post = {
    _id: 'post-e2e-published',
    _type: 'post',
    title,
    slug: { _type: 'slug', current: slug },
    publishedAt: new Date().toISOString(),
    excerpt: 'A post published by the end-to-end test.', // not seed copy
    body: [{ _key: 'b1', _type: 'block', style: 'normal', markDefs: [], children: [{ _key: 's1', _type: 'span', marks: [], text: 'Published offline.' }] }], // not seed copy
  }
  const url = `${site}/blog/${slug}`
  expect((await request.get(`/blog/${slug}`)).status()).toBe(404)
  try {
    expect(await publish([post])).toMatch(/Revalidated post, doc:post-e2e-published/)
    await page.goto('/blog')
    await expect(page.locator('article h2 a').first()).toHaveText(title)
    await page.goto(`/blog/${slug}`)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
    expect((await feedLinks(request, '/blog/feed.xml'))[0]).toBe(url)
    expect(await sitemapUrls(request)).toContain(url)
  } finally {
    await unpublish(['post-e2e-published'])
  }
  const gone = await request.get(`/blog/${slug}`)
  expect(gone.status()).toBe(404)
  expect(await gone.text()).toContain(copy.notFound.title)
  await page.goto('/blog')
  await expect(page.locator('article h2 a')).toHaveText(articles.map((p) => p.title))
  expect(await feedLinks(request, '/blog/feed.xml')).not.toContain(url)
  expect(await sitemapUrls(request)).not.toContain(url)
})

test('a changelog entry published offline appears on /changelog and in its feed, not on /blog', async ({ page, request }) => {
  const slug = `e2e-change-${Date.now()}`
  const title = `Faster insights ${slug}` // not seed copy: this test's own entry
  const change = {
    _id: 'post-e2e-change',
    _type: 'post',
    kind: 'changelog',
    title,
    slug: { _type: 'slug', current: slug },
    publishedAt: new Date().toISOString(),
    excerpt: 'Insights now arrive a minute after the conversation.', // not seed copy
    body: [{ _key: 'b1', _type: 'block', style: 'normal', markDefs: [], children: [{ _key: 's1', _type: 'span', marks: [], text: 'Faster.' }] }], // not seed copy
  }
  try {
    await publish([change])
    await page.goto('/changelog')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(copy.blog.changelogTitle)
    await expect(page.locator('article h2 a')).toHaveText([title, entry!.title])
    expect((await feedLinks(request, '/changelog/feed.xml'))[0]).toBe(`${site}/blog/${slug}`)
    await page.goto('/blog')
    await expect(page.locator('article h2 a')).toHaveText(articles.map((post) => post.title))
  } finally {
    await unpublish(['post-e2e-change'])
  }
})

test('addresses the blog does not have are the 404 drawn by the server', async ({ request }) => {
  for (const path of [
    '/blog/no-such-post',
    '/blog/page/2',
    '/blog/page/1',
    '/blog/category/no-such-category',
    '/blog/category/product/page/9',
    '/blog/a/b/c',
  ]) {
    const answer = await request.get(path)
    expect(answer.status(), path).toBe(404)
    expect(await answer.text(), path).toContain(copy.notFound.title)
  }
})
