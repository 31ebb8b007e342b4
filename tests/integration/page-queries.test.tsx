import { readFileSync } from 'node:fs'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { normalizePath } from '@/lib/content/paths'
import { evaluateQuery, parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'
import { contentTokens, toPage, toPageList, toRedirects, toSectionPage, toSiteSettings } from '@/sanity/content/reshape'
import type { Section, SectionOf } from '@/sanity/content/types'
import { landingPageQuery, pageListQuery, pageQuery, redirectsQuery, siteSettingsQuery } from '@/sanity/queries'
import type { LandingPageQueryResult, PageQueryResult, SiteSettingsQueryResult } from '@/sanity/types.generated'
import { PageBuilder, sectionHeadingIds } from '@/components/sections/page-builder'

// The pages' GROQ, run by groq-js over the seed (what the embedded site and the tests' Sanity
// stand-in do), then reshaped as the site reshapes it.

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'seed')
// Every translated document is read in one language; English unless a test says otherwise.
const run = <T,>(dataset: SeedDocument[], query: string, params: Record<string, unknown> = {}) =>
  evaluateQuery(dataset, query, { language: 'en', ...params }) as Promise<T>
const rawSettings = (await run<NonNullable<SiteSettingsQueryResult>>(seed, siteSettingsQuery))!
const tokens = contentTokens(rawSettings)
const pageAt = async (slug: string, dataset = seed) => {
  const raw = await run<PageQueryResult>(dataset, pageQuery, { slug })
  return raw ? toPage(raw, tokens) : null
}
const redirectFrom = async (path: string, dataset: SeedDocument[]) => toRedirects(await run(dataset, redirectsQuery)).get(normalizePath(path)) ?? null

describe('pages', () => {
  it('a page by slug: its sections in order, its SEO, links to other pages by their current slug', async () => {
    const privacy = (await pageAt('privacy'))!
    expect(privacy).toMatchObject({ id: 'page-privacy', title: 'Privacy Policy', slug: 'privacy', seo: { title: 'Privacy Policy', noindex: false } })
    expect(privacy.sections.map((s) => s._type)).toEqual(['pageHeaderSection', 'richTextSection'])
    const body = privacy.sections[1]!._type === 'richTextSection' ? privacy.sections[1]!.body : []
    const pageLinks = body.flatMap((block) => (block._type === 'block' ? (block.markDefs ?? []) : [])).filter((def) => def._type === 'pageLink')
    expect(pageLinks.map((def) => def.slug)).toEqual(['cookies', 'gdpr'])
    // The contact address comes from Site settings, so changing it there changes the policy too.
    expect(JSON.stringify(body)).toContain(rawSettings.contact.generalEmail)
    expect(JSON.stringify(body)).not.toContain('{{contactEmail}}')
  })

  it('follows a renamed slug: the link from the privacy policy now points at the new address', async () => {
    const renamed = seed.map((doc) => (doc._id === 'page-cookies' ? { ...doc, slug: { _type: 'slug', current: 'cookie-policy' } } : doc))
    const privacy = (await pageAt('privacy', renamed))!
    expect(JSON.stringify(privacy.sections)).toContain('"slug":"cookie-policy"')
    expect(await pageAt('cookies', renamed)).toBeNull()
  })

  it('an unknown slug, a draft and a hidden section are not published', async () => {
    expect(await pageAt('no-such-page')).toBeNull()
    const careers = seed.find((doc) => doc._id === 'page-careers') as SeedDocument & { sections: { _key: string }[] }
    const dataset = [
      ...seed.filter((doc) => doc._id !== 'page-careers'),
      { ...careers, _id: 'drafts.page-draft-only', slug: { _type: 'slug', current: 'draft-only' } },
      { ...careers, sections: careers.sections.map((section, index) => (index === 1 ? { ...section, hidden: true } : section)) },
    ]
    expect(await pageAt('draft-only', dataset)).toBeNull()
    expect((await pageAt('careers', dataset))!.sections.map((s) => s._type)).toEqual(['pageHeaderSection', 'statementSection'])
    expect(
      toPageList(await run(dataset, pageListQuery))
        .filter((p) => p.language === 'en')
        .map((p) => p.slug),
    ).toEqual(['careers', 'cookies', 'gdpr', 'privacy', 'terms'])
  })

  it('the page list says which pages are hidden from search engines', async () => {
    const dataset = seed.map((doc) => (doc._id === 'page-terms' ? { ...doc, seo: { ...(doc.seo as object), noindex: true } } : doc))
    expect(
      toPageList(await run(dataset, pageListQuery))
        .filter((p) => p.noindex)
        .map((p) => p.slug),
    ).toEqual(['terms'])
  })

  it('menus link to pages by reference; an unpublished page is shown as planned, not as a dead link', async () => {
    const settings = toSiteSettings(rawSettings)
    expect(settings.footer.legalLinks.map((link) => ('href' in link ? link.href : link.kind))).toEqual(['/privacy', '/terms', '/cookies', '/gdpr'])
    const withoutTerms = seed.filter((doc) => doc._id !== 'page-terms')
    const after = toSiteSettings((await run<NonNullable<SiteSettingsQueryResult>>(withoutTerms, siteSettingsQuery))!)
    expect(after.footer.legalLinks.map((link) => link.kind)).toEqual(['internal', 'planned', 'internal', 'internal'])
    expect(after.consent.policyLink).toMatchObject({ kind: 'internal', href: '/cookies' })
  })
})

describe('redirects', () => {
  const redirect = (id: string, source: string, destination: Record<string, unknown>, permanent = true) => ({
    _id: id,
    _type: 'redirect',
    source,
    destination,
    permanent,
  })
  const dataset: SeedDocument[] = [
    ...seed,
    redirect('r-page', '/old-privacy', { kind: 'page', page: { _type: 'reference', _ref: 'page-privacy' } }),
    redirect('r-path', '/features/', { kind: 'path', path: '/#features' }, false),
    redirect('r-url', '/docs', { kind: 'url', url: 'https://docs.example.com/' }),
    redirect('r-gone', '/old-careers', { kind: 'page', page: { _type: 'reference', _ref: 'page-unpublished' } }),
    { ...redirect('drafts.r-draft', '/draft', { kind: 'path', path: '/' }) },
  ]

  it('resolve to a page’s current path, a path or an address, permanent or not', async () => {
    expect(await redirectFrom('/old-privacy', dataset)).toEqual({ destination: '/privacy', permanent: true })
    expect(await redirectFrom('/old-privacy/', dataset)).toEqual({ destination: '/privacy', permanent: true })
    expect(await redirectFrom('/features', dataset)).toEqual({ destination: '/#features', permanent: false })
    expect(await redirectFrom('/docs', dataset)).toEqual({ destination: 'https://docs.example.com/', permanent: true })
  })

  it('answer nothing for an unknown path, a draft, or a page that is not published', async () => {
    expect(await redirectFrom('/nowhere', dataset)).toBeNull()
    expect(await redirectFrom('/draft', dataset)).toBeNull()
    expect(await redirectFrom('/old-careers', dataset)).toBeNull()
  })
})

describe('the page builder', async () => {
  const landing = toSectionPage((await run<NonNullable<LandingPageQueryResult>>(seed, landingPageQuery))!, tokens)
  const context = { settings: toSiteSettings(rawSettings), ctaLocation: 'cta' as const }

  it('renders the landing page’s sections in their order, on the server', () => {
    const html = renderToStaticMarkup(<PageBuilder title={landing.title} sections={landing.sections} context={context} />)
    const order = [...html.matchAll(/<(?:section|div)[^>]*?(?:id="([a-z-]+)"[^>]*?)?aria-labelledby="([a-z0-9-]+)"/g)].map((m) => m[1] ?? m[2])
    expect(order.slice(0, 9)).toEqual(['hero-title', 'logos-title', 'how-it-works', 'features', 'cards-title', 'audiences', 'pricing', 'faq', 'cta-title'])
  })

  it('a reordered page renders in the new order', () => {
    const reversed = [...landing.sections].reverse()
    expect(sectionHeadingIds(reversed)).toEqual([
      'cta-title',
      'faq-title',
      'pricing-title',
      'audiences-title',
      'cards-title',
      'features-title',
      'how-it-works-title',
      'logos-title',
      'hero-title',
    ])
    const html = renderToStaticMarkup(<PageBuilder title={landing.title} sections={reversed} context={context} />)
    expect(html.indexOf('id="cta-title"')).toBeLessThan(html.indexOf('id="hero-title"'))
  })

  it('gives two sections of one kind distinct heading ids', () => {
    const [hero] = landing.sections
    expect(sectionHeadingIds([hero!, hero!, { ...hero!, anchorId: 'top' }])).toEqual(['hero-title', 'hero-2-title', 'top-title'])
  })

  describe('one h1 on every page, whatever its sections', () => {
    const h1s = (html: string) => [...html.matchAll(/<h1[^>]*>(.*?)<\/h1>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ''))
    const of = (type: string) => landing.sections.find((section) => section._type === type)!
    const hero = of('heroSection') as SectionOf<'heroSection'>
    const header = {
      _key: 'ph',
      _type: 'pageHeaderSection',
      title: 'A page header',
      eyebrow: null,
      subtitle: null,
      lastUpdated: null,
      anchorId: null,
    } as unknown as Section
    const faq = of('faqSection')
    const build = (sections: Section[]) => renderToStaticMarkup(<PageBuilder title="The page’s own title" sections={sections} context={context} />)

    it('sections with no hero or page header: the page’s title, drawn first', () => {
      const html = build([faq])
      expect(h1s(html)).toEqual(['The page’s own title'])
      expect(html.indexOf('<h1')).toBeLessThan(html.indexOf('<h2'))
      expect(h1s(build([]))).toEqual(['The page’s own title'])
    })

    it('the first hero or page header gives it, wherever it sits; a later one draws an h2', () => {
      expect(h1s(build([faq, hero, header, hero]))).toEqual([[hero.title, hero.titleHighlight].filter(Boolean).join(' ')])
      const html = build([header, hero])
      expect(h1s(html)).toEqual(['A page header'])
      expect(html).toMatch(new RegExp(`<h2 id="hero-title"[^>]*>${hero.title}`))
    })

    it('the landing page’s title is in the seed, for when its hero is removed', () => {
      expect(landing.title.length).toBeGreaterThan(0)
      expect(h1s(build(landing.sections.filter((section) => section._type !== 'heroSection')))).toEqual(['The page’s own title'])
    })
  })

  it('a section type the code does not know renders nothing, logged once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const unknown = { _key: 'x', _type: 'carouselSection', anchorId: null } as unknown as Section
    const html = renderToStaticMarkup(<PageBuilder title={landing.title} sections={[unknown, landing.sections[0]!, unknown]} context={context} />)
    expect(html).toContain('id="hero-title"')
    expect(warn).toHaveBeenCalledTimes(1)
    warn.mockRestore()
  })
})
