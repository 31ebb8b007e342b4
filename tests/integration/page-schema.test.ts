import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'
import { schemaTypes } from '@/sanity/schemaTypes'
import { validateDocuments } from '@/sanity/validate-documents'

// The Studio's rules for pages, rich text, links and redirects, run as `npm run content:publish`
// runs them: over the whole dataset, so rules that look at other documents (unique slugs,
// redirect loops) see what the Studio's client would.

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'seed')
const privacy = seed.find((doc) => doc._id === 'page-privacy')!

const page = (id: string, slug: string, sections: unknown[] = [{ _key: 's1', _type: 'pageHeaderSection', title: 'A page' }]) => ({
  _id: id,
  _type: 'page',
  title: 'A page',
  slug: { _type: 'slug', current: slug },
  sections,
})

const redirect = (id: string, source: string, destination: Record<string, unknown>, permanent = true) => ({
  _id: id,
  _type: 'redirect',
  source,
  destination,
  permanent,
})

const richText = (...body: unknown[]) => [{ _key: 'rt', _type: 'richTextSection', body }]
const block = (text: string, extra: Record<string, unknown> = {}) => ({
  _key: `b-${text.length}`,
  _type: 'block',
  style: 'normal',
  markDefs: [],
  children: [{ _key: 's', _type: 'span', text, marks: [] }],
  ...extra,
})

async function problemsWith(...documents: Record<string, unknown>[]) {
  const ids = new Set(documents.map((doc) => doc._id))
  return validateDocuments(schemaTypes as never, [...seed.filter((doc) => !ids.has(doc._id)), ...(documents as SeedDocument[])])
}

describe('pages', () => {
  it('accepts a new page built from sections', async () => {
    expect(await problemsWith(page('page-new', 'customer-stories'))).toEqual([])
  })

  it('refuses a slug the code owns, a malformed slug, and a slug another page has', async () => {
    expect(await problemsWith(page('page-a', 'studio'))).toEqual([expect.stringMatching(/^page-a\.slug: "studio" is a path the site's code owns/)])
    expect(await problemsWith(page('page-a', 'about'))).toEqual([expect.stringMatching(/^page-a\.slug: "about" is a path the site's code owns/)])
    expect(await problemsWith(page('page-a', 'Our Story'))).toEqual([expect.stringMatching(/^page-a\.slug: Use lowercase letters/)])
    // As in the Studio, both pages show the clash.
    expect(await problemsWith(page('page-a', 'privacy'))).toEqual([
      'page-a.slug: Another page already has the address /privacy',
      'page-privacy.slug: Another page already has the address /privacy',
    ])
  })

  it('lets a page keep its own slug (its draft is not "another page")', async () => {
    expect(await problemsWith({ ...privacy, _id: 'drafts.page-privacy' }, privacy)).toEqual([])
  })

  it('refuses a section type the site does not know and two sections with one anchor id', async () => {
    expect(await problemsWith(page('page-a', 'a', [{ _key: 'x', _type: 'carouselSection', title: 'Spin' }]))).toEqual([
      'page-a.sections[0]: unknown type carouselSection',
    ])
    const header = (key: string) => ({ _key: key, _type: 'pageHeaderSection', title: 'T', anchorId: 'top' })
    expect(await problemsWith(page('page-a', 'a', [header('one'), header('two')]))).toEqual(['page-a.sections: Two sections use the anchor id "top"'])
    expect(await problemsWith(page('page-a', 'a', [{ ...header('one'), anchorId: 'Top Of Page' }]))).toEqual([
      'page-a.sections[0].anchorId: Use lowercase letters, digits and hyphens, starting with a letter',
    ])
  })
})

describe('rich text', () => {
  it('accepts headings, lists, marks, links, callouts and images with alt text', async () => {
    const body = [
      block('Title', { style: 'h2' }),
      block('Item', { listItem: 'bullet', level: 1 }),
      {
        ...block('See the policy'),
        markDefs: [
          { _key: 'l1', _type: 'link', href: 'mailto:hello@example.com' },
          { _key: 'l2', _type: 'pageLink', page: { _type: 'reference', _ref: 'page-privacy' } },
        ],
        children: [
          { _key: 'a', _type: 'span', text: 'See ', marks: ['strong', 'em', 'code'] },
          { _key: 'b', _type: 'span', text: 'us', marks: ['l1'] },
          { _key: 'c', _type: 'span', text: 'the policy', marks: ['l2'] },
        ],
      },
      { _key: 'c1', _type: 'callout', tone: 'important', text: 'Read this.' },
      { _key: 'i1', _type: 'image', alt: 'A chart', asset: { _type: 'reference', _ref: 'image-abc-800x600-png' } },
    ]
    expect(await problemsWith(page('page-a', 'a', richText(...body)))).toEqual([])
  })

  it.each([
    ['javascript:alert(1)', /must be an address starting with http: or https: or mailto:/],
    ['data:text/html,hi', /must be an address starting with/],
    ['ftp://example.com', /must be an address starting with/],
  ])('refuses a link to %s', async (href, message) => {
    const linked = { ...block('x'), markDefs: [{ _key: 'l', _type: 'link', href }], children: [{ _key: 's', _type: 'span', text: 'x', marks: ['l'] }] }
    expect(await problemsWith(page('page-a', 'a', richText(linked)))).toEqual([expect.stringMatching(message)])
  })

  it('refuses an image without alternative text, an unknown style, list or mark, and a link to a missing page', async () => {
    const body = [
      { _key: 'i1', _type: 'image', asset: { _type: 'reference', _ref: 'image-abc-800x600-png' } },
      block('Big', { style: 'h1' }),
      block('Step', { listItem: 'roman' }),
      { ...block('x'), children: [{ _key: 's', _type: 'span', text: 'x', marks: ['underline'] }] },
      {
        ...block('y'),
        markDefs: [{ _key: 'p', _type: 'pageLink', page: { _type: 'reference', _ref: 'page-gone' } }],
        children: [{ _key: 's', _type: 'span', text: 'y', marks: ['p'] }],
      },
    ]
    expect((await problemsWith(page('page-a', 'a', richText(...body)))).sort()).toEqual(
      [
        'page-a.sections[0].body[0].alt: required',
        'page-a.sections[0].body[1].style: "h1" is not one of normal, h2, h3, h4',
        'page-a.sections[0].body[2].listItem: "roman" is not one of bullet, number',
        'page-a.sections[0].body[3].children[0]: unknown mark underline',
        'page-a.sections[0].body[4].markDefs[0].page: reference to missing document page-gone',
      ].sort(),
    )
  })
})

describe('links', () => {
  it('a menu link to a page needs the page', async () => {
    const settings = seed.find((doc) => doc._id === 'siteSettings') as SeedDocument & { footer: { legalLinks: Record<string, unknown>[] } }
    const broken = { ...settings, footer: { ...settings.footer, legalLinks: [{ ...settings.footer.legalLinks[0], page: undefined }] } }
    expect(await problemsWith(broken)).toEqual(['siteSettings.footer.legalLinks[0].page: Choose a page'])
  })
})

describe('redirects', () => {
  it('accepts redirects to a page, a path and an address', async () => {
    expect(
      await problemsWith(
        redirect('redirect-1', '/old-privacy', { kind: 'page', page: { _type: 'reference', _ref: 'page-privacy' } }),
        redirect('redirect-2', '/features', { kind: 'path', path: '/#features' }, false),
        redirect('redirect-3', '/docs', { kind: 'url', url: 'https://docs.example.com' }),
      ),
    ).toEqual([])
  })

  it('refuses a source that is a page, loops and chains', async () => {
    expect(await problemsWith(redirect('r1', '/privacy', { kind: 'path', path: '/terms' }))).toEqual([
      'r1.source: /privacy is the address of a published page or post: unpublish it or change its address first',
    ])
    expect(await problemsWith(redirect('r1', '/x', { kind: 'path', path: '/x' }))).toEqual(['r1.source: /x redirects to itself (a loop)'])
    const problems = await problemsWith(redirect('r1', '/a', { kind: 'path', path: '/b' }), redirect('r2', '/b', { kind: 'path', path: '/a' }))
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^r1\.source: \/a → \/b → \/a is a loop/),
        expect.stringMatching(/^r2\.source: \/b → \/a → \/b is a loop/),
      ]),
    )
    expect(
      await problemsWith(
        redirect('r1', '/a', { kind: 'path', path: '/b' }),
        redirect('r2', '/b', { kind: 'page', page: { _type: 'reference', _ref: 'page-privacy' } }),
      ),
    ).toEqual([
      'r1.source: /b is itself redirected (to /privacy): point this redirect straight at the final address, no chains',
      'r2.source: The redirect from /a points at /b: a chain. Point that one at the final address first',
    ])
  })

  it('refuses a destination of the wrong scheme and a missing one', async () => {
    expect(await problemsWith(redirect('r1', '/a', { kind: 'url', url: 'javascript:alert(1)' }))).toEqual([
      expect.stringMatching(/^r1\.destination\.url: must be an address starting with https: or http:/),
    ])
    expect(await problemsWith(redirect('r1', '/a', { kind: 'page' }))).toEqual(['r1.destination.page: Choose a page'])
  })
})

describe('the waitlist e-mails’ words', () => {
  const waitlist = seed.find((doc) => doc._id === 'waitlistPage') as SeedDocument & { email: Record<string, string> }

  it('refuse a placeholder in the greeting of the e-mails anyone can cause: nothing a visitor typed goes to an unproven address', async () => {
    for (const greeting of ['Hi {name},', 'Hello {company}', 'Hi {']) {
      expect(await problemsWith({ ...waitlist, email: { ...waitlist.email, anonymousGreeting: greeting } })).toEqual([
        'waitlistPage.email.anonymousGreeting: No placeholders here: this e-mail must not carry anything a visitor typed.',
      ])
    }
    expect(await problemsWith({ ...waitlist, email: { ...waitlist.email, anonymousGreeting: 'Hello,' } })).toEqual([])
  })
})
