import { markdownToPortableText } from '@portabletext/markdown'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { absoluteUrl, heading, link, list, quote, table, text } from '@/lib/markdown/markdown'
import { richTextMarkdown } from '@/components/sections/rich-text/markdown'
import { faqMarkdown } from '@/components/sections/faq/markdown'
import { pricingMarkdown } from '@/components/sections/pricing/markdown'
import { buildLlmsTxt } from '@/components/markdown/llms'
import type { PricingTier, SectionOf, SiteSettings } from '@/sanity/content'
import type { MarkdownContext } from '@/components/sections/markdown-types'

// The Markdown of the twins and llms.txt (lib/markdown, components/sections/*/markdown.ts): what a
// page says, and nothing an editor typed can change its structure: every text is read back by
// the field's own parser (@portabletext/markdown) as one paragraph of exactly that text.

const SITE = 'https://heardly.example'
const span = (value: string, marks: string[] = []) => ({ _type: 'span', _key: `s${value.length}`, text: value, marks })
const block = (children: ReturnType<typeof span>[], extra: Record<string, unknown> = {}) => ({
  _type: 'block',
  _key: `b${Math.random()}`,
  style: 'normal',
  markDefs: [],
  children,
  ...extra,
})
const context = { settings: { language: 'en', labels: { sample: 'Sample' } } as SiteSettings, siteUrl: SITE } satisfies MarkdownContext

/** What Markdown parses to: each block's style and text (the field's parser, as a Markdown reader would). */
const parsed = (markdown: string) =>
  markdownToPortableText(markdown).map((value) => {
    const item = value as { _type: string; style?: string; listItem?: string; children?: { text?: string }[] }
    return { type: item._type, style: item.style, listItem: item.listItem, text: item.children?.map((child) => child.text ?? '').join('') }
  })

const HOSTILE = [
  '# Not a heading',
  '- not a list',
  '1. not a list either',
  '> not a quote',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '[click](javascript:alert(1))',
  '![x](https://evil.example/x.png)',
  '**bold** _em_ `code` ~~strike~~',
  '| a | b |',
  '---',
  '```js',
  '<!-- comment -->',
  '&lt;b&gt; &amp;',
  '\\# escaped',
]

describe('plain text in a twin', () => {
  it.each(HOSTILE)('reads back as the words typed, nothing else: %s', (typed) => {
    expect(parsed(text(typed))).toEqual([{ type: 'block', style: 'normal', listItem: undefined, text: typed }])
  })

  it('any text whatever is one paragraph of exactly that text (generated)', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('#', '-', '*', '_', '`', '[', ']', '(', ')', '<', '>', '!', '|', '\\', '&', ';', '1', '.', ' ', 'a', 'b', '~', '=', '+', ':'),
        }),
        (typed) => {
          const words = typed.trim()
          fc.pre(/[ab1]/.test(words) && !/^\s|\s$/.test(words) && !/ {2,}/.test(words))
          const read = parsed(text(words))
          expect(read).toHaveLength(1)
          expect(read[0]).toMatchObject({ type: 'block', style: 'normal', text: words })
        },
      ),
      { numRuns: 300 },
    )
  })

  it('removes what the plain-text rule refuses (controls, text-direction tricks)', () => {
    expect(text('Price\u202E list\u0007')).toBe('Price list')
  })

  it('a heading, a list, a quote and a table keep one structure each, whatever their words', () => {
    expect(parsed(heading(1, '# Title <b>'))).toEqual([{ type: 'block', style: 'h1', listItem: undefined, text: '# Title <b>' }])
    expect(heading(3, 'Deep')).toBe('### Deep')
    expect(parsed(list(['- one', '2. two'].map((item) => text(item))))).toEqual([
      { type: 'block', style: 'normal', listItem: 'bullet', text: '- one' },
      { type: 'block', style: 'normal', listItem: 'bullet', text: '2. two' },
    ])
    expect(parsed(quote('Line one\n# line two'))).toMatchObject([{ style: 'blockquote' }])
    const cells = table(['Plan | evil', 'Price'], [['Pro', '$29 | free']])
    expect(cells.split('\n')).toEqual(['| Plan \\| evil | Price |', '| --- | --- |', '| Pro | $29 \\| free |'])
  })
})

describe('links and images', () => {
  it.each([
    ['/about', `${SITE}/about`],
    ['/#pricing', `${SITE}/#pricing`],
    ['https://docs.example/a b(c)', 'https://docs.example/a%20b%28c%29'],
    ['http://example.com/', 'http://example.com/'],
    ['javascript:alert(1)', null],
    ['data:text/html,<b>', null],
    ['mailto:hi@example.com', null],
    ['//evil.example/x', null],
    ['/\\evil.example', null],
    ['', null],
  ])('%s is linked as %s', (href, url) => {
    expect(absoluteUrl(href, SITE)).toBe(url)
    expect(link('Words', href, SITE)).toBe(url ? `[Words](${url})` : 'Words')
  })

  it('the words of a link cannot close it early', () => {
    expect(parsed(link('a](https://evil.example) [b', '/about', SITE))).toEqual([
      { type: 'block', style: 'normal', listItem: undefined, text: 'a](https://evil.example) [b' },
    ])
  })
})

describe('rich text (Portable Text) in a twin', () => {
  const body = [
    block([span('Heading two')], { style: 'h2' }),
    block([span('Heading three')], { style: 'h3' }),
    block(
      [
        span('A '),
        span('bold', ['strong']),
        span(' move, '),
        span('a link', ['l1']),
        span(', '),
        span('a page', ['p1']),
        span(' and '),
        span('a trap', ['l2']),
        span('.'),
      ],
      {
        markDefs: [
          { _type: 'link', _key: 'l1', href: 'https://example.com/docs' },
          { _type: 'pageLink', _key: 'p1', slug: 'privacy', language: 'de' },
          { _type: 'link', _key: 'l2', href: 'javascript:alert(1)' },
        ],
      },
    ),
    block([span('First')], { listItem: 'bullet', level: 1 }),
    block([span('Second')], { listItem: 'bullet', level: 1 }),
    block([span('One')], { listItem: 'number', level: 1 }),
    { _type: 'code', _key: 'c1', language: 'typescript', code: 'const fence = "```"\n````\nstill code' },
    { _type: 'code', _key: 'c2', language: 'bad lang`', code: 'plain' },
    { _type: 'image', _key: 'i1', alt: 'A chart [of] things', caption: 'Figure 1', asset: { _ref: 'image-abc123-800x600-png' }, url: '/seed-images/chart.png' },
    { _type: 'callout', _key: 'k1', tone: 'note', text: 'Mind the <gap>' },
    { _type: 'html', _key: 'h1', html: '<script>alert(1)</script>' },
    { _type: 'somethingNew', _key: 'n1', secret: 'internal' },
    block([span('<b>raw</b> & <u>text</u>')]),
    block([span('underlined', ['underline']), span(' `tick` code', ['code'])]),
  ]
  const markdown = richTextMarkdown(body as never, { siteUrl: SITE, language: 'en' })

  it('headings as #, lists, emphasis, and links made absolute (only http(s) and the site)', () => {
    expect(markdown).toContain('## Heading two\n\n### Heading three')
    expect(markdown).toContain('A **bold** move, [a link](https://example.com/docs), [a page](https://heardly.example/de/privacy) and a trap.')
    expect(markdown).toContain('- First\n- Second')
    expect(markdown).toContain('1. One')
  })

  it('code fenced with its language, however many backticks it holds', () => {
    expect(markdown).toContain('`````typescript\nconst fence = "```"\n````\nstill code\n`````')
    expect(markdown).toContain('```\nplain\n```')
    const code = markdownToPortableText(markdown).filter((value) => value._type === 'code')
    expect(code).toMatchObject([{ language: 'typescript', code: 'const fence = "```"\n````\nstill code' }, { code: 'plain' }])
  })

  it('images as their alternative text and absolute address; callouts as quotes', () => {
    expect(markdown).toContain('![A chart \\[of\\] things](https://heardly.example/seed-images/chart.png)\n\nFigure 1')
    expect(markdown).toMatch(/^> Mind the \\<gap>$/m)
  })

  it('passes no raw HTML and nothing of a block type it does not know', () => {
    expect(markdown).not.toMatch(/(?<!\\)<\/?(script|b|u)>/)
    expect(markdown).not.toContain('internal')
    expect(markdown).toContain('\\<b>raw\\</b> & \\<u>text\\</u>')
    expect(markdown).toContain('underlined`` `tick` code``')
    // Read back, no block is HTML.
    expect(markdownToPortableText(markdown).map((value) => value._type)).not.toContain('html')
  })
})

describe('sections in a twin', () => {
  const tier = (name: string, price: string, interval: string, extra: Partial<PricingTier> = {}): PricingTier => ({
    id: name,
    name,
    amount: 0,
    currency: 'USD',
    description: `${name} plan`,
    price,
    interval,
    terms: ['No credit card required'],
    insights: '10 insights',
    overageNote: null,
    features: ['Slack'],
    available: true,
    ctaLabel: 'Start',
    highlightLabel: null,
    ...extra,
  })

  it('prices as a table, a column per plan, then each plan', () => {
    const section = {
      _type: 'pricingSection',
      _key: 'p',
      title: 'Pricing',
      subtitle: null,
      eyebrow: null,
      footnote: 'In US dollars.',
      ctaLabel: 'Start your trial',
      tiers: [tier('Starter', 'Free', ''), tier('Pro | Max', '$29', '/month', { highlightLabel: 'Most popular' })],
    }
    const markdown = pricingMarkdown(section as unknown as SectionOf<'pricingSection'>, 2, context)
    expect(markdown).toContain(
      '## Pricing\n\n| Starter | Pro \\| Max |\n| --- | --- |\n| Free | $29/month |\n| No credit card required | No credit card required |\n| 10 insights | 10 insights |',
    )
    expect(markdown).toContain('### Pro | Max\n\nMost popular\n\nPro | Max plan\n\n- Slack')
    expect(markdown).toContain('[Start your trial](https://heardly.example/waitlist)')
  })

  it('an FAQ as questions and their answers', () => {
    const section = {
      _type: 'faqSection',
      _key: 'f',
      title: 'FAQ',
      subtitle: null,
      items: [{ _key: '1', question: 'Is it <free>?', answer: 'Yes.\n- Really' }],
    }
    expect(faqMarkdown(section as unknown as SectionOf<'faqSection'>, 2, context)).toBe('## FAQ\n\n### Is it \\<free>?\n\nYes.  \n\\- Really')
  })
})

describe('llms.txt', () => {
  it('is an H1, a one-paragraph blockquote, then sections of "- [title](url): note" lines, whatever the words', () => {
    const llms = buildLlmsTxt({
      siteName: '# Heardly <b>',
      summary: 'Line one\n## line two [x](javascript:y)',
      siteUrl: SITE,
      sections: [
        {
          heading: 'Pages',
          links: [
            { title: 'About ](https://evil.example)', url: `${SITE}/about.md`, note: 'Who we are\n- and more' },
            { title: 'Trap', url: 'javascript:alert(1)' },
          ],
        },
        { heading: 'Empty', links: [] },
        { heading: 'Pricing', links: [{ title: 'Pro: $29/month', url: `${SITE}/index.md`, note: null }] },
      ],
    })
    const lines = llms.trimEnd().split('\n')
    expect(lines).toEqual([
      '# \\# Heardly \\<b>',
      '',
      '> Line one ## line two \\[x\\](javascript:y)',
      '',
      '## Pages',
      '',
      '- [About \\](https://evil.example)](https://heardly.example/about.md): Who we are - and more',
      '',
      '## Pricing',
      '',
      '- [Pro: $29/month](https://heardly.example/index.md)',
    ])
  })
})
