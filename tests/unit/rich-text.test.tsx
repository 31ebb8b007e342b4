import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { headingIds, RichText, safeHref, TOC_MIN_HEADINGS } from '@/components/sections/rich-text/rich-text'
import { assetDimensions, sanityImageAttributes } from '@/lib/content/image'
import type { RichTextBody } from '@/sanity/content/types'

// Every block and mark the Studio offers, rendered as the site renders it (on the server, to HTML).

let n = 0
const span = (text: string, marks: string[] = []) => ({ _key: `s${n++}`, _type: 'span' as const, text, marks })
const block = (children: ReturnType<typeof span>[], extra: Record<string, unknown> = {}) =>
  ({ _key: `b${n++}`, _type: 'block', style: 'normal', markDefs: [], children, ...extra }) as RichTextBody[number]
const render = (body: unknown[]) => renderToStaticMarkup(<RichText value={body as RichTextBody} tocTitle="On this page" tocId="toc" />)

afterEach(() => vi.restoreAllMocks())

describe('rich text blocks', () => {
  it('headings h2–h4 get readable, unique ids; paragraphs are paragraphs', () => {
    const html = render([
      block([span('What we collect')], { style: 'h2' }),
      block([span('Café & cookies')], { style: 'h3' }),
      block([span('What we collect')], { style: 'h4' }),
      block([span('Plain words.')]),
    ])
    expect(html).toContain('<h2 id="what-we-collect"')
    expect(html).toContain('<h3 id="cafe-cookies"')
    expect(html).toContain('<h4 id="what-we-collect-2"')
    expect(html).toMatch(/<p[^>]*>Plain words\.<\/p>/)
  })

  it('bulleted and numbered lists', () => {
    const html = render([
      block([span('one')], { listItem: 'bullet', level: 1 }),
      block([span('two')], { listItem: 'bullet', level: 1 }),
      block([span('first')], { listItem: 'number', level: 1 }),
    ])
    expect(html).toMatch(/<ul[^>]*><li[^>]*>one<\/li><li[^>]*>two<\/li><\/ul><ol[^>]*><li[^>]*>first<\/li><\/ol>/)
  })

  it('bold, italic and inline code', () => {
    const html = render([block([span('b', ['strong']), span('i', ['em']), span('c', ['code'])])])
    expect(html).toMatch(/<strong[^>]*>b<\/strong><em>i<\/em><code[^>]*>c<\/code>/)
  })

  it('external links carry rel="noopener noreferrer"; mailto works; other schemes are not links', () => {
    const html = render([
      block([span('site', ['l1']), span(' mail', ['l2']), span(' evil', ['l3'])], {
        markDefs: [
          { _key: 'l1', _type: 'link', href: 'https://example.com/a' },
          { _key: 'l2', _type: 'link', href: 'mailto:hello@example.com' },
          { _key: 'l3', _type: 'link', href: 'javascript:alert(1)' },
        ],
      }),
    ])
    expect(html).toMatch(/<a href="https:\/\/example.com\/a" rel="noopener noreferrer"[^>]*>site<\/a>/)
    expect(html).toMatch(/<a href="mailto:hello@example.com" rel="noopener noreferrer"[^>]*> mail<\/a>/)
    expect(html).not.toContain('javascript:')
    expect(html).toContain(' evil')
  })

  it('links to pages follow the page’s current slug; a link to an unpublished page is plain text', () => {
    const html = render([
      block([span('policy', ['p1']), span(' gone', ['p2'])], {
        markDefs: [
          { _key: 'p1', _type: 'pageLink', slug: 'privacy', page: { _ref: 'page-privacy' } },
          { _key: 'p2', _type: 'pageLink', slug: null, page: { _ref: 'page-gone' } },
        ],
      }),
    ])
    expect(html).toMatch(/<a href="\/privacy"[^>]*>policy<\/a>/)
    expect(html).not.toMatch(/<a[^>]*> gone/)
  })

  it('a callout is a note', () => {
    expect(render([{ _key: 'c', _type: 'callout', tone: 'important', text: 'Read this.' }])).toMatch(/<div role="note"[^>]*>Read this\.<\/div>/)
  })

  it('an image without a Sanity project (the seed) renders nothing rather than a broken image', () => {
    expect(render([{ _key: 'i', _type: 'image', alt: 'A chart', asset: { _ref: 'image-abc123-1600x900-png' } }])).toBe('')
  })

  it('an unknown block type renders nothing, is logged once, and does not break the text', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const body = [{ _key: 'x', _type: 'videoEmbed', url: 'https://example.com' }, block([span('Still here.')]), { _key: 'y', _type: 'videoEmbed' }]
    const html = render(body)
    render(body)
    expect(html).toMatch(/^<p[^>]*>Still here\.<\/p>$/)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toMatch(/videoEmbed/)
  })
})

describe('table of contents', () => {
  const headings = (count: number) => Array.from({ length: count }, (_, i) => block([span(`Part ${i + 1}`)], { style: i === 2 ? 'h3' : 'h2' }))

  it(`appears from ${TOC_MIN_HEADINGS} headings on, linking to each`, () => {
    const html = render(headings(TOC_MIN_HEADINGS))
    expect(html).toMatch(/^<nav aria-labelledby="toc"[^>]*><h2 id="toc"[^>]*>On this page<\/h2>/)
    for (let i = 1; i <= TOC_MIN_HEADINGS; i++) expect(html).toContain(`<a href="#part-${i}"`)
  })

  it('does not appear with fewer', () => {
    expect(render(headings(TOC_MIN_HEADINGS - 1))).not.toContain('<nav')
  })

  it('heading ids are computed once for the text and the contents', () => {
    expect([...headingIds(headings(2) as RichTextBody).values()].map((h) => h.id)).toEqual(['part-1', 'part-2'])
  })
})

describe('images from Sanity’s pipeline', () => {
  it('read their size from the asset id, so the page reserves their space', () => {
    expect(assetDimensions('image-Tb9Ew8CXIwaY6R1kjMvI0uRR-2000x3000-jpg')).toEqual({ width: 2000, height: 3000 })
    expect(assetDimensions('file-abc-pdf')).toBeNull()
  })

  it('come as a srcset in the browser’s best format, with width and height', () => {
    const image = sanityImageAttributes({ asset: { _ref: 'image-abc123-1600x900-png' } }, { projectId: 'proj', dataset: 'production' })
    expect(image).toMatchObject({ width: 1536, height: 864 })
    expect(image!.src).toMatch(/^https:\/\/cdn\.sanity\.io\/images\/proj\/production\/abc123-1600x900\.png\?w=1536&fit=max&auto=format$/)
    expect(image!.srcSet!.split(', ').map((entry) => entry.split(' ')[1])).toEqual(['480w', '768w', '1024w', '1536w'])
    expect(sanityImageAttributes({ asset: { _ref: 'image-abc123-1600x900-png' } }, { projectId: undefined, dataset: 'production' })).toBeNull()
  })

  it('with a project, render with alt text, width and height', async () => {
    vi.stubEnv('NEXT_PUBLIC_SANITY_PROJECT_ID', 'proj')
    vi.resetModules()
    const { RichText: WithProject } = await import('@/components/sections/rich-text/rich-text')
    const html = renderToStaticMarkup(
      <WithProject
        value={[{ _key: 'i', _type: 'image', alt: 'A chart', caption: 'Sign-ups', asset: { _ref: 'image-abc123-600x400-png' } }] as unknown as RichTextBody}
        tocTitle=""
        tocId="t"
      />,
    )
    vi.unstubAllEnvs()
    expect(html).toMatch(/<img [^>]*width="600" height="400"[^>]*alt="A chart"/)
    expect(html).toContain('<figcaption')
  })
})

describe('safeHref', () => {
  it.each([
    ['https://a.test', 'https://a.test'],
    ['mailto:x@a.test', 'mailto:x@a.test'],
    ['JAVASCRIPT:alert(1)', null],
    ['/relative', null],
    ['', null],
  ])('%s', (href, expected) => expect(safeHref(href)).toBe(expected))
})
