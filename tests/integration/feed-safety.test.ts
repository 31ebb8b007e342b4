import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { SaxesParser } from 'saxes'
import { describe, expect, it } from 'vitest'
import { blogPageQuery, postFeedQuery, siteSettingsQuery } from '@/sanity/queries'
import type { BlogPageQueryResult, PostFeedQueryResult, SiteSettingsQueryResult } from '@/sanity/types.generated'
import { evaluateQuery, parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'
import { toBlogCopy, toFeedPosts } from '@/sanity/content/posts'
import { toSiteSettings } from '@/sanity/content/reshape'
import { toPlainText } from '@/lib/content/plain-text'
import { buildFeed } from '@/components/blog/feed'

// Both feeds, for whatever the Studio accepts (and what skipped it), read back by a conforming
// XML 1.0 parser (saxes: it refuses every character XML forbids, which fast-xml-parser's validator
// does not): well-formed, one <title> and one <link> per item, the title and summary exactly the
// text typed (as a reader that renders them as HTML shows them), and the body's text intact.

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'seed')
const run = <T>(dataset: SeedDocument[], query: string, params: Record<string, unknown> = {}) =>
  evaluateQuery(dataset, query, { language: 'en', ...params }) as Promise<T>
const copy = toBlogCopy((await run<NonNullable<BlogPageQueryResult>>(seed, blogPageQuery))!, 'en')
const settings = toSiteSettings((await run<NonNullable<SiteSettingsQueryResult>>(seed, siteSettingsQuery))!)
const KINDS = ['article', 'changelog'] as const

type Post = { title: string; excerpt: string; text: string; code?: { language: string; code: string } }

function postDocument({ title, excerpt, text, code }: Post, kind: (typeof KINDS)[number]): SeedDocument {
  return {
    _id: 'post-nasty',
    _type: 'post',
    kind,
    title,
    slug: { _type: 'slug', current: 'nasty' },
    publishedAt: '2030-01-01T10:00:00Z',
    excerpt,
    body: [
      { _key: 'b1', _type: 'block', style: 'normal', markDefs: [], children: [{ _key: 's1', _type: 'span', marks: [], text }] },
      ...(code ? [{ _key: 'c1', _type: 'code', ...code }] : []),
    ],
  }
}

type Item = { children: { name: string; text: string }[] }

/** The feed's items as a strict parser reads them; throws on anything that is not XML 1.0. */
function parseStrictly(xml: string): Item[] {
  const parser = new SaxesParser({ xmlns: false })
  const items: Item[] = []
  const stack: string[] = []
  let text = ''
  parser.on('error', (error) => {
    throw error
  })
  parser.on('opentag', (tag) => {
    stack.push(tag.name)
    if (tag.name === 'item') items.push({ children: [] })
    text = ''
  })
  parser.on('text', (chunk) => (text += chunk))
  parser.on('cdata', (chunk) => (text += chunk))
  parser.on('closetag', (tag) => {
    stack.pop()
    if (stack.at(-1) === 'item') items.at(-1)!.children.push({ name: tag.name, text })
    text = ''
  })
  parser.write(xml).close()
  return items
}

/** What a reader that renders the text as HTML shows: character references decoded, in one pass. */
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const asHtmlText = (html: string) =>
  html.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(amp|lt|gt|quot|apos));/gi, (_, decimal?: string, hex?: string, name?: string) =>
    name ? NAMED[name]! : String.fromCodePoint(decimal ? Number(decimal) : parseInt(hex!, 16)),
  )

async function feedWith(post: Post, kind: (typeof KINDS)[number]) {
  const posts = toFeedPosts(await run<PostFeedQueryResult>([...seed, postDocument(post, kind)], postFeedQuery, { kinds: [kind] }), 'show')
  return buildFeed({ kind, posts, copy, settings })
}

/** Checks one feed holding `post` and answers its item. */
async function checkedItem(post: Post, kind: (typeof KINDS)[number]) {
  const items = parseStrictly(await feedWith(post, kind))
  const item = items.find((candidate) => candidate.children.some((child) => child.name === 'link' && child.text.endsWith('/blog/nasty')))
  expect(item, 'the post is in the feed with its own link').toBeDefined()
  for (const each of items) {
    expect(each.children.filter((child) => child.name === 'title')).toHaveLength(1)
    expect(each.children.filter((child) => child.name === 'link')).toHaveLength(1)
  }
  // An empty summary leaves the element out.
  const field = (name: string) => item!.children.find((child) => child.name === name)?.text ?? ''
  // Plain text: no markup a reader would apply, and exactly the words once decoded.
  expect(field('title')).not.toContain('<')
  expect(field('description')).not.toContain('<')
  expect(asHtmlText(field('title'))).toBe(toPlainText(post.title))
  // XML reads every line end as a line feed, so the feed writes them so.
  expect(asHtmlText(field('description'))).toBe(toPlainText(post.excerpt, 'lines').replace(/\r\n?/g, '\n'))
  return { content: field('content:encoded'), link: field('link') }
}

const NASTY: [string, Post][] = [
  [
    'two CDATA sections in an HTML code block',
    { title: 'CDATA', excerpt: 'Code', text: 'See below.', code: { language: 'html', code: '<a><![CDATA[1]]></a>\n<b><![CDATA[2]]></b>' } },
  ],
  ['a vertical tab pasted into the summary (Shift+Enter)', { title: 'Tabs', excerpt: 'One line\u000Bthe next', text: 'Body\u000Btext' }],
  [
    'a title that tries to add a link and a second title',
    { title: 'A]]>B]]></title><link>https://evil.example/</link><title><![CDATA[x', excerpt: 'x', text: 'x' },
  ],
  [
    'markup in the title and summary',
    { title: 'Our <b>bold</b> plan & more', excerpt: '<script>alert(1)</script> & <i>more</i>', text: '<img src=x onerror=alert(1)>' },
  ],
  ['bidirectional controls', { title: 'Invoice \u202Egpj.exe', excerpt: 'Read \u2066this\u2069', text: 'Body \u202E reversed' }],
  ['control characters of every kind', { title: 'a\u0000b\u0001c\u001Fd\u007Fe\u0085f', excerpt: 'x\u0008y\u000Cz', text: 'p\u0000q' }],
  ['unpaired surrogates and noncharacters', { title: 'half \uD800 a \uFFFE b \uDC00', excerpt: 'x\uFFFFy', text: 'lone \uDBFF' }],
  ['emoji, Arabic, CJK and combining marks', { title: 'Launch 🚀👩🏽‍💻 مرحبا 你好 é', excerpt: 'Zalgo z̷̢͓a̵l̴g̸o', text: '🇩🇪 ok' }],
  ['ampersands already written as entities', { title: 'Q&amp;A &lt;b&gt;', excerpt: '&#60;x&#62; &nbsp;', text: '&amp;' }],
  ['a body of 10,000 characters', { title: 'Long', excerpt: 'Long body', text: 'x]]>'.repeat(2500) }],
]

describe('the feeds, for anything a post may say', () => {
  for (const kind of KINDS) {
    describe(`the ${kind === 'article' ? 'blog' : 'changelog'}’s feed`, () => {
      for (const [name, post] of NASTY) {
        it(`stays XML with one title and one link per item: ${name}`, async () => {
          const { content, link } = await checkedItem(post, kind)
          expect(link).toBe('http://localhost:3000/blog/nasty')
          expect(content).not.toMatch(/<script|<img src=x|<b>bold/)
        })
      }

      it('keeps a body’s text: a code block’s CDATA ends read as written', async () => {
        const { content } = await checkedItem(NASTY[0]![1], kind)
        expect(asHtmlText(content.replace(/<[^>]+>/g, ''))).toContain('<a><![CDATA[1]]></a>')
        expect(asHtmlText(content.replace(/<[^>]+>/g, ''))).toContain('<b><![CDATA[2]]></b>')
      })

      it('any title, summary, text and code (generated) gives a feed a strict parser reads, its link unmoved', async () => {
        const text = fc.string({ unit: 'binary', maxLength: 60 })
        const cdata = fc.constantFrom(']]>', '<![CDATA[', '</title>', '<link>', '&', '\u000B', '\u202E', '\uD800', '<')
        const tricky = fc.array(fc.oneof(text, cdata), { maxLength: 6 }).map((parts) => parts.join(''))
        await fc.assert(
          fc.asyncProperty(tricky, tricky, tricky, tricky, async (title, excerpt, body, code) => {
            // The Studio requires a title with words; the feed is still well-formed without one.
            const post = { title: `t${title}`, excerpt, text: body, code: { language: 'html', code } }
            await checkedItem(post, kind)
          }),
          { numRuns: 60 },
        )
      })
    })
  }
})
