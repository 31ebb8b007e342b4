import { gzipSync } from 'node:zlib'
import type { APIResponse } from '@playwright/test'
import { varyTokens } from '../lib/http/vary'
import { E2E } from '../tools/test/e2e-env'
import { expect, test } from './fixtures'
import { publishLocally as publish, unpublishLocally as unpublish } from './local-publish'
import { copy } from './seed-copy'

// The Markdown twins and llms.txt on the production build: the twin of a page carries the h1 the
// browser shows, the page names it in its head, `Accept` chooses between them with `Vary: Accept`
// on both, an unknown twin is the 404, and a page published with `npm run content:publish` (the
// Studio's webhook) is in llms.txt and has its twin without a rebuild, then is gone when unpublished.

const stamp = () => Date.now().toString(36)
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'

test.describe.configure({ mode: 'serial' })

test('each page and post has a Markdown twin with its h1, named in its head; Accept chooses, with Vary: Accept', async ({ page, request }) => {
  const post = copy.doc('post-why-ai-interviews', 'post')
  for (const [address, twin] of [
    ['/', '/index.md'],
    ['/about', '/about.md'],
    ['/de/about', '/de/about.md'],
    ['/privacy', '/privacy.md'],
    [`/blog/${post.slug.current}`, `/blog/${post.slug.current}.md`],
  ] as const) {
    await page.goto(address)
    const h1 = (await page.getByRole('heading', { level: 1 }).innerText()).replace(/\s+/g, ' ').trim()
    await expect(page.locator('link[rel="alternate"][type="text/markdown"]')).toHaveAttribute('href', new RegExp(`${twin.replace('.', '\\.')}$`))
    const response = await request.get(twin)
    expect(response.status(), twin).toBe(200)
    expect(response.headers()['content-type']).toBe('text/markdown; charset=utf-8')
    const markdown = await response.text()
    expect(
      markdown
        .split('\n')
        .filter((line) => line.startsWith('# '))
        .map((line) => line.slice(2).replace(/\\(.)/g, '$1')),
      twin,
    ).toEqual([h1])
    expect(markdown).not.toMatch(/<(html|nav|header|footer|script)\b/)
  }

  // The page's own address: Markdown for a request that prefers it, HTML for a browser; both vary
  // on Accept, as a whole token (`Accept-Encoding` is another header), beside Next's own tokens.
  const varies = (response: APIResponse) => varyTokens(response.headers()['vary'])
  const asMarkdown = await request.get('/about', { headers: { Accept: 'text/markdown' } })
  expect(asMarkdown.headers()['content-type']).toBe('text/markdown; charset=utf-8')
  expect(varies(asMarkdown)).toContain('Accept')
  // Kept out of shared caches: one that ignores Vary would hand it to the next browser.
  expect(asMarkdown.headers()['cache-control']).toBe('private, no-store')
  expect(await asMarkdown.text()).toBe(await (await request.get('/about.md')).text())
  const asHtml = await request.get('/about', { headers: { Accept: BROWSER_ACCEPT } })
  expect(asHtml.headers()['content-type']).toMatch(/^text\/html/)
  expect(varies(asHtml).sort()).toEqual(
    ['Accept', 'Accept-Encoding', 'next-router-prefetch', 'next-router-segment-prefetch', 'next-router-state-tree', 'rsc'].sort(),
  )
  const germanHome = await request.get('/de', { headers: { Accept: 'text/markdown' } })
  expect(germanHome.headers()['content-type']).toBe('text/markdown; charset=utf-8')
  expect(varies(germanHome)).toContain('Accept')

  // Unknown twins, and the twins' route itself, are the 404 of their language, as pages are; a
  // language's home has its twin at /<code>/index.md only (/de.md once answered the English home's).
  for (const missing of [
    '/no-such-page.md',
    '/de/no-such-page.md',
    '/de/privacy.md',
    '/blog/no-such-post.md',
    '/waitlist.md',
    '/md/about',
    '/de/md/about',
    '/de.md',
    '/en.md',
    '/de/.md',
    '/DE.md',
    '/de.md/',
  ]) {
    const response = await request.get(missing)
    expect(response.status(), missing).toBe(404)
    expect(response.headers()['content-type'], missing).toMatch(/^text\/html/)
  }

  // The size of two twins, raw and gzipped, for the bench's note.
  for (const twin of ['/about.md', '/index.md']) {
    const body = Buffer.from(await (await request.get(twin)).body())
    console.log(`[twin size] ${twin}: ${body.length} B raw, ${gzipSync(body, { level: 9 }).length} B gzip -9, ${gzipSync(body).length} B gzip -6`)
  }
})

test('a page published with content:publish is in llms.txt and has its twin without a rebuild, and is gone once unpublished', async ({ request }) => {
  // Two runs of content:publish (tsx starting up) on a busy machine.
  test.slow()
  const slug = `twin-${stamp()}`
  const id = `page-${slug}`
  // This test's own page: its words are fixtures, published and checked here.
  const title = 'Release notes for assistants'
  const paragraph = 'Read by people and by their assistants.'
  const description = 'What an assistant should know.'
  const llms = async (path = '/llms.txt') => (await request.get(path)).text()
  const line = `- [${title}](${new URL(`/${slug}.md`, `http://localhost:${E2E.sitePort}`).href}): ${description}`
  expect((await request.get(`/${slug}.md`)).status()).toBe(404)
  expect(await llms()).not.toContain(line)
  await publish([
    {
      _id: id,
      _type: 'page',
      title,
      slug: { _type: 'slug', current: slug },
      seo: { description },
      sections: [
        { _key: 'h', _type: 'pageHeaderSection', title },
        {
          _key: 'rt',
          _type: 'richTextSection',
          body: [{ _key: 'p', _type: 'block', style: 'normal', markDefs: [], children: [{ _key: 's', _type: 'span', text: paragraph, marks: [] }] }],
        },
      ],
    },
  ])
  try {
    await expect.poll(async () => (await request.get(`/${slug}.md`)).status(), { timeout: 10_000 }).toBe(200)
    expect(await (await request.get(`/${slug}.md`)).text()).toBe(`# ${title}\n\n${paragraph}\n`)
    await expect.poll(llms, { timeout: 10_000 }).toContain(line)
    // German's llms.txt lists German pages only.
    expect(await llms('/de/llms.txt')).not.toContain(slug)
  } finally {
    await unpublish([id])
  }
  await expect.poll(async () => (await request.get(`/${slug}.md`)).status(), { timeout: 10_000 }).toBe(404)
  expect((await request.get(`/${slug}`, { headers: { Accept: 'text/markdown' } })).status()).toBe(404)
  await expect.poll(llms, { timeout: 10_000 }).not.toContain(slug)
})
