import { readFileSync } from 'node:fs'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { prerenderToNodeStream } from 'react-dom/static'
import { describe, expect, it } from 'vitest'
import { blogPageQuery, categoriesQuery, postFeedQuery, postQuery, postSummariesQuery, siteSettingsQuery } from '@/sanity/queries'
import type {
  BlogPageQueryResult,
  CategoriesQueryResult,
  PostFeedQueryResult,
  PostQueryResult,
  PostSummariesQueryResult,
  SiteSettingsQueryResult,
} from '@/sanity/types.generated'
import { evaluateQuery, parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'
import { seedImagesDir, withSeedAssets } from '@/sanity/seed/assets'
import {
  inLanguage,
  neighbours,
  postListPage,
  postListPaths,
  toBlogCopy,
  toCategories,
  toFeedPosts,
  toPost,
  toPostSummaries,
  type SampleMode,
} from '@/sanity/content/posts'
import type { PostSummary } from '@/sanity/content/types'
import { addressesFrom, answerFor, readAddressSources } from '@/sanity/content/addresses'
import { postListPath, POSTS_PER_PAGE } from '@/lib/content/paths'
import { toSiteSettings } from '@/sanity/content/reshape'
import { buildFeed } from '@/components/blog/feed'
import { RichText } from '@/components/sections/rich-text/rich-text'
import { validateDocuments } from '@/sanity/validate-documents'
import { schemaTypes } from '@/sanity/schemaTypes'

// The posts' GROQ run by groq-js over the seed (what the embedded site runs), reshaped as the site
// reshapes it; the feeds built from it and read back by an XML parser; the addresses the proxy
// answers for posts and lists.

// As the Studio and `sanity dataset import` take it, and with the seed's images resolved as the site resolves them (an asset and its URL).
const rawSeed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'seed')
const seed = await withSeedAssets(rawSeed, seedImagesDir('sanity/seed/production.ndjson'))
// Every translated document is read in one language; English unless a test says otherwise.
const run = <T,>(dataset: SeedDocument[], query: string, params: Record<string, unknown> = {}) =>
  evaluateQuery(dataset, query, { language: 'en', ...params }) as Promise<T>

/** The English posts (the query reads every language; lists take their own). */
const summaries = async (dataset = seed, samples: SampleMode = 'show') =>
  inLanguage(toPostSummaries(await run<PostSummariesQueryResult>(dataset, postSummariesQuery), samples), 'en')
const englishCategories = async (dataset: SeedDocument[], posts: PostSummary[]) =>
  inLanguage(toCategories(await run<CategoriesQueryResult>(dataset, categoriesQuery), posts), 'en')
const postAt = async (slug: string, dataset = seed, samples: SampleMode = 'show') => {
  const raw = await run<PostQueryResult>(dataset, postQuery, { slug })
  return raw ? toPost(raw, samples) : null
}
const copy = toBlogCopy((await run<NonNullable<BlogPageQueryResult>>(seed, blogPageQuery))!, 'en')
const settings = toSiteSettings((await run<NonNullable<SiteSettingsQueryResult>>(seed, siteSettingsQuery))!)

/** A post as a marketer publishes it: only the five required fields. */
const minimalPost = (id: string, slug: string, publishedAt: string, extra: Record<string, unknown> = {}): SeedDocument => ({
  _id: id,
  _type: 'post',
  title: `Post ${slug}`,
  slug: { _type: 'slug', current: slug },
  publishedAt,
  excerpt: `What ${slug} is about.`,
  body: [{ _key: 'b1', _type: 'block', style: 'normal', markDefs: [], children: [{ _key: 's1', _type: 'span', marks: [], text: 'One two three.' }] }],
  ...extra,
})

describe('post documents', () => {
  it('the seed has two articles and one changelog entry by two authors, all marked sample, and the Studio accepts them', async () => {
    const posts = await summaries()
    expect(posts.filter((post) => post.kind === 'article')).toHaveLength(2)
    expect(posts.filter((post) => post.kind === 'changelog')).toHaveLength(1)
    expect(new Set(posts.flatMap((post) => post.authors.map((author) => author.name))).size).toBe(2)
    expect(posts.every((post) => post.isSample)).toBe(true)
    expect(await validateDocuments(schemaTypes as never, rawSeed)).toEqual([])
  })

  it('a post needs only title, slug, date, summary and text to publish; without one of them it is refused', async () => {
    const post = minimalPost('post-min', 'minimal', '2026-11-20T10:00:00Z')
    expect(await validateDocuments(schemaTypes as never, [...rawSeed, post])).toEqual([])
    for (const field of ['title', 'slug', 'publishedAt', 'excerpt', 'body']) {
      const { [field]: _gone, ...without } = post
      expect(await validateDocuments(schemaTypes as never, [...rawSeed, without as SeedDocument])).toContain(`post-min.${field}: required`)
    }
  })

  it('refuses a second post at the same address, a list segment as a slug, and a code block in a language not offered', async () => {
    const taken = minimalPost('post-dup', 'why-ai-interviews', '2026-11-20T10:00:00Z')
    expect((await validateDocuments(schemaTypes as never, [...rawSeed, taken])).join('\n')).toContain(
      'Another post already has the address /blog/why-ai-interviews',
    )
    expect((await validateDocuments(schemaTypes as never, [...rawSeed, minimalPost('post-p', 'page', '2026-11-20T10:00:00Z')])).join('\n')).toContain(
      "blog's list addresses",
    )
    const cobol = minimalPost('post-c', 'cobol', '2026-11-20T10:00:00Z', { body: [{ _key: 'c', _type: 'code', language: 'cobol', code: 'DISPLAY "HI"' }] })
    expect((await validateDocuments(schemaTypes as never, [...rawSeed, cobol])).join('\n')).toContain('post-c.body[0].language: "cobol" is not one of')
  })
})

describe('post projections (groq-js)', () => {
  it('lists every published post newest first, with its path, kind, categories and authors, and no drafts', async () => {
    const dataset = [...seed, { ...minimalPost('drafts.post-x', 'draft-only', '2026-12-01T00:00:00Z') }]
    const posts = await summaries(dataset)
    expect(posts.map((post) => post.slug)).toEqual(['slack-threads-and-webhooks', 'good-interview-questions', 'why-ai-interviews'])
    expect(posts[1]).toMatchObject({
      path: '/blog/good-interview-questions',
      kind: 'article',
      categories: [
        { title: 'User research', slug: 'user-research' },
        { title: 'Product', slug: 'product' },
      ],
      authors: [{ name: 'Maya Lindqvist' }, { name: 'Tomás Ferreira', picture: null }],
    })
    expect(posts[1]!.authors[0]!.picture?.url).toBe('/seed-images/portrait-sample.svg')
  })

  it('a post without a kind is an article; one with a code block keeps the code for the highlighter', async () => {
    const dataset = [...seed, minimalPost('post-min', 'minimal', '2026-11-20T10:00:00Z')]
    expect((await postAt('minimal', dataset))!.kind).toBe('article')
    const entry = (await postAt('slack-threads-and-webhooks'))!
    const code = entry.body.filter((block) => block._type === 'code')
    expect(code).toHaveLength(2)
    expect(code[0]).toMatchObject({ language: 'json', filename: 'insight.json' })
  })

  it('counts reading time from the whole text (headings, lists, callouts), at least one minute', async () => {
    const words = (count: number, key: string) => ({
      _key: key,
      _type: 'block',
      style: 'normal',
      markDefs: [],
      children: [{ _key: `${key}s`, _type: 'span', marks: [], text: 'word '.repeat(count) }],
    })
    // 1000 words at 200 a minute: five minutes, whichever blocks hold them.
    const long = minimalPost('post-long', 'long', '2026-11-20T10:00:00Z', { body: [words(600, 'a'), { ...words(400, 'b'), style: 'h2' }] })
    expect((await postAt('long', [...seed, long]))!.readingMinutes).toBe(5)
    const tiny = [...seed, minimalPost('post-min', 'minimal', '2026-11-20T10:00:00Z')]
    expect((await postAt('minimal', tiny))!.readingMinutes).toBe(1)
  })

  it('a deployed site (samples hidden) shows no sample post, lists none, and names no sample author', async () => {
    expect(await summaries(seed, 'hide')).toEqual([])
    expect(await postAt('why-ai-interviews', seed, 'hide')).toBeNull()
    const real = { ...minimalPost('post-real', 'real', '2026-11-21T10:00:00Z'), authors: [{ _key: 'a', _type: 'reference', _ref: 'person-maya' }] }
    const shown = (await summaries([...seed, real], 'hide'))[0]!
    expect(shown.slug).toBe('real')
    expect(shown.authors).toEqual([])
  })

  it('pages the articles ten at a time, per category too; a page past the end or a category with no articles does not exist', async () => {
    const many = Array.from({ length: POSTS_PER_PAGE + 3 }, (_, index) =>
      minimalPost(`post-n${index}`, `n${index}`, `2026-09-${String(index + 1).padStart(2, '0')}T08:00:00Z`, {
        categories: [{ _key: 'c', _type: 'reference', _ref: 'category-product' }],
      }),
    )
    const dataset = [...seed, ...many]
    const posts = await summaries(dataset)
    const categories = await englishCategories(dataset, posts)
    const first = postListPage(posts, { page: 1, language: 'en' })!
    expect(first.posts).toHaveLength(POSTS_PER_PAGE)
    expect(first.posts.every((post) => post.kind === 'article')).toBe(true)
    expect(first.pages).toBe(2)
    expect(postListPage(posts, { page: 2, language: 'en' })!.posts).toHaveLength(5)
    expect(postListPage(posts, { page: 3, language: 'en' })).toBeNull()
    expect(postListPage(posts, { page: 0, language: 'en' })).toBeNull()
    const product = categories.find((category) => category.slug === 'product')!
    expect(postListPage(posts, { category: product, page: 2, language: 'en' })!.posts.map((post) => post.slug)).toEqual(['n3', 'n2', 'n1', 'n0'])
    expect(postListPaths(posts, categories, 'en').map(postListPath)).toEqual([
      '/blog',
      '/blog/page/2',
      '/blog/category/product',
      '/blog/category/product/page/2',
      '/blog/category/user-research',
    ])
    // A category whose only posts are samples has no list on a deployed site.
    expect(await englishCategories(seed, await summaries(seed, 'hide'))).toEqual([])
  })

  it('previous and next stay within the kind', async () => {
    const posts = await summaries()
    const middle = posts.find((post) => post.slug === 'good-interview-questions')!
    const { previous, next } = neighbours(posts, middle)
    expect(previous?.slug).toBe('why-ai-interviews')
    expect(next).toBeNull()
  })
})

describe('addresses the proxy answers for posts', () => {
  it('a published post and its lists answer; an unpublished one, an unknown one and a page past the end are 404s', async () => {
    const withoutOne = seed.filter((doc) => doc._id !== 'post-why-ai-interviews')
    const addresses = addressesFrom(await readAddressSources((query) => run(withoutOne, query)), 'show')
    expect(answerFor(addresses, '/blog/good-interview-questions').kind).toBe('page')
    expect(answerFor(addresses, '/blog/category/user-research').kind).toBe('page')
    expect(answerFor(addresses, '/blog/feed.xml').kind).toBe('page')
    expect(answerFor(addresses, '/blog/why-ai-interviews').kind).toBe('missing')
    expect(answerFor(addresses, '/blog/page/2').kind).toBe('missing')
    expect(answerFor(addresses, '/blog/category/nope').kind).toBe('missing')
  })
})

describe('rich text of posts on the server', () => {
  it('highlights code blocks into escaped HTML with colours and no script', async () => {
    const entry = (await postAt('slack-threads-and-webhooks'))!
    // CodeBlock is an async server component: a static prerender waits for it, as the server's render does.
    const { prelude } = await prerenderToNodeStream(RichText({ value: entry.body, tocTitle: 'Contents', tocId: 'toc' }))
    let html = ''
    for await (const chunk of prelude) html += chunk
    expect(html).toContain('Also in this release')
    expect(html).toContain('<figcaption class="border-b border-slate-200 bg-slate-50 px-4 py-2 font-mono text-sm text-slate-700">insight.json</figcaption>')
    expect(html).toMatch(/<pre class="shiki github-light-high-contrast"[^>]*><code>/)
    expect(html).toContain('color:')
    // The code's own characters arrive escaped: the && of the TypeScript example.
    expect(html).toContain('&#x26;&#x26;')
    expect(html).not.toContain(' && ')
    expect(html).not.toContain('<script')
  })
})

describe('feeds', () => {
  const parser = new XMLParser({ ignoreAttributes: false })

  async function feedOf(kind: 'article' | 'changelog', dataset = seed) {
    const posts = toFeedPosts(await run<PostFeedQueryResult>(dataset, postFeedQuery, { kinds: [kind] }), 'show')
    return buildFeed({ kind, posts, copy, settings })
  }

  it('the blog feed is well-formed RSS 2.0 with the required channel and item elements, each article with its whole text', async () => {
    const xml = await feedOf('article')
    expect(XMLValidator.validate(xml)).toBe(true)
    const rss = parser.parse(xml).rss
    expect(rss['@_version']).toBe('2.0')
    // RSS 2.0: a channel needs title, link and description; an item needs a title or a description.
    expect(rss.channel).toMatchObject({ title: expect.stringContaining(copy.title), link: 'http://localhost:3000/blog', description: copy.intro })
    const items = [rss.channel.item].flat()
    expect(items.map((item) => item.link)).toEqual(['http://localhost:3000/blog/good-interview-questions', 'http://localhost:3000/blog/why-ai-interviews'])
    for (const item of items) {
      expect(item.title).toBeTruthy()
      expect(item.guid['#text'] ?? item.guid).toBe(item.link)
      expect(new Date(item.pubDate).toString()).not.toBe('Invalid Date')
    }
    const content = items[1]['content:encoded'] as string
    expect(content).toContain('<h2>Where people still matter</h2>')
    // Images and links in a feed reader need absolute addresses.
    expect(content).toMatch(/<img src="http:\/\/localhost:3000\/seed-images\/feature-slack\.svg"/)
  })

  it('the changelog has its own feed, with its code highlighted and escaped', async () => {
    const xml = await feedOf('changelog')
    expect(XMLValidator.validate(xml)).toBe(true)
    const items = [parser.parse(xml).rss.channel.item].flat()
    expect(items).toHaveLength(1)
    expect(items[0]['content:encoded']).toContain('class="shiki')
    expect(items[0]['content:encoded']).not.toContain('<script')
  })

  it('a title or text with markup stays text: the feed is still well-formed and carries no live tag', async () => {
    const nasty = minimalPost('post-nasty', 'nasty', '2026-11-23T10:00:00Z', {
      title: 'Break </title><script>alert(1)</script> & ]]> out',
      body: [
        {
          _key: 'b1',
          _type: 'block',
          style: 'normal',
          markDefs: [{ _key: 'l', _type: 'link', href: 'javascript:alert(1)' }],
          children: [{ _key: 's1', _type: 'span', marks: ['l'], text: '<img src=x onerror=alert(1)>' }],
        },
      ],
    })
    const xml = await feedOf('article', [...seed, nasty])
    expect(XMLValidator.validate(xml)).toBe(true)
    const item = [parser.parse(xml).rss.channel.item].flat()[0]
    // Plain text, escaped for readers that render titles as HTML (tests/integration/feed-safety.test.ts).
    expect(item.title).toBe('Break &#60;/title&#62;&#60;script&#62;alert(1)&#60;/script&#62; &#38; ]]&#62; out')
    expect(item['content:encoded']).not.toContain('<img src=x')
    expect(item['content:encoded']).not.toContain('javascript:')
  })

  it('an unpublished post leaves the feed', async () => {
    const xml = await feedOf(
      'article',
      seed.filter((doc) => doc._id !== 'post-why-ai-interviews'),
    )
    expect(xml).not.toContain('why-ai-interviews')
  })
})
