import { NextRequest } from 'next/server'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Addresses } from '@/sanity/content/addresses'
import { assignVariant, participate, type ExperimentSplit } from '@/components/variants/assign'
import { parseVariantSegment, variantSegment } from '@/components/variants/segment'
import { MAX_ASSIGNMENTS, parseAssignments, serializeAssignments } from '@/sanity/variants/assignments'
import type { RunningExperiments } from '@/components/variants/running'
import type { LiveCampaign, LiveCampaigns } from '@/sanity/variants/live-campaigns'

// Who takes part in an experiment and which variant they see: the split by shares, its
// stickiness, the consent gate in the proxy, and the variant page's internal address.

const known = vi.hoisted(() => ({ running: null as RunningExperiments | null, campaigns: new Map() as LiveCampaigns }))
vi.mock('@/sanity/content/addresses', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/sanity/content/addresses')>()),
  addresses: async (): Promise<Addresses> => {
    const pages = new Set(['/', '/about', '/privacy', '/de', '/de/about'])
    return { languages: new Set(['de']), pages, redirects: new Map(), twins: pages, campaigns: known.campaigns }
  },
}))
vi.mock('@/components/variants/running', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/components/variants/running')>()),
  runningExperiments: async () => {
    if (!known.running) throw new Error('Sanity is down')
    return known.running
  },
}))

const { proxy } = await import('@/proxy')

const ids = Array.from({ length: 10_000 }, (_, index) => `participant-${index}`)

function split(experiment: ExperimentSplit): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const id of ids) {
    const variant = assignVariant(experiment, id)
    counts[variant] = (counts[variant] ?? 0) + 1
  }
  return Object.fromEntries(Object.entries(counts).map(([variant, count]) => [variant, (count / ids.length) * 100]))
}

describe('assignment by shares', () => {
  it.each([
    [
      { key: 'hero-headline', variants: [{ key: 'b', share: 50 }] },
      { control: 50, b: 50 },
    ],
    [
      {
        key: 'pricing-copy',
        variants: [
          { key: 'b', share: 20 },
          { key: 'c', share: 30 },
        ],
      },
      { control: 50, b: 20, c: 30 },
    ],
    [
      { key: 'cta-label', variants: [{ key: 'short', share: 10 }] },
      { control: 90, short: 10 },
    ],
    [
      { key: 'about-story', variants: [{ key: 'b', share: 99 }] },
      { control: 1, b: 99 },
    ],
  ])('10,000 simulated participants of %o are within 1 percentage point of the split', (experiment, expected) => {
    const observed = split(experiment)
    for (const [variant, share] of Object.entries(expected))
      expect(Math.abs((observed[variant] ?? 0) - share), `${variant}: ${observed[variant]} %`).toBeLessThan(1)
  })

  it('gives everyone the variant when it takes 100 %, and control to everyone when no variant has a share', () => {
    expect(split({ key: 'all-b', variants: [{ key: 'b', share: 100 }] })).toEqual({ b: 100 })
    expect(split({ key: 'none', variants: [] })).toEqual({ control: 100 })
  })

  it('is the same for the same participant, and unrelated between experiments', () => {
    const a = { key: 'hero-headline', variants: [{ key: 'b', share: 50 }] }
    const b = { key: 'pricing-copy', variants: [{ key: 'b', share: 50 }] }
    expect(ids.slice(0, 100).map((id) => assignVariant(a, id))).toEqual(ids.slice(0, 100).map((id) => assignVariant(a, id)))
    const same = ids.filter((id) => assignVariant(a, id) === assignVariant(b, id)).length / ids.length
    expect(Math.abs(same - 0.5)).toBeLessThan(0.02)
  })
})

describe('stickiness', () => {
  const hero = { key: 'hero-headline', variants: [{ key: 'b', share: 50 }] }
  const about = { key: 'about-story', variants: [{ key: 'long', share: 50 }] }

  it('keeps a held variant, assigns only experiments not met yet, and keeps the others', () => {
    const first = participate([hero], {}, () => 'participant-1')
    expect(first.changed).toBe(true)
    const again = participate([hero], first.assignments, () => 'someone-else')
    expect(again).toEqual({ shown: first.shown, assignments: first.assignments, changed: false })
    const elsewhere = participate([about], { ...first.assignments, 'stopped-one': 'c' }, () => 'participant-2')
    expect(elsewhere.assignments).toMatchObject({ ...first.assignments, 'stopped-one': 'c', 'about-story': expect.any(String) })
    expect(Object.keys(elsewhere.shown)).toEqual(['about-story'])
  })

  it('keeps a new assignment when the cookie is full of experiments met before: it is sticky from the next visit on', () => {
    const stale = Object.fromEntries(Array.from({ length: MAX_ASSIGNMENTS }, (_, index) => [`old-test-${index}`, 'b']))
    const first = participate([hero], stale, () => 'participant-1')
    const cookie = serializeAssignments(first.assignments)
    const held = parseAssignments(cookie)
    expect(held['hero-headline']).toBe(first.shown['hero-headline'])
    expect(Object.keys(held)).toHaveLength(MAX_ASSIGNMENTS)
    // What fell off is the last of the old ones; the next visit assigns nothing and writes nothing.
    expect(held).not.toHaveProperty(`old-test-${MAX_ASSIGNMENTS - 1}`)
    expect(participate([hero], held, () => 'someone-else')).toMatchObject({ changed: false, shown: first.shown })
  })

  it('shows control for a variant the experiment does not have (a forged cookie), and does not replace it', () => {
    expect(participate([hero], { 'hero-headline': 'zzz' }, () => 'x')).toEqual({ shown: {}, assignments: { 'hero-headline': 'zzz' }, changed: false })
  })
})

describe('the variant page’s segment', () => {
  it('names the language and the variants, sorted, and reads back only what it writes', () => {
    const segment = variantSegment('de', { 'pricing-copy': 'c', 'hero-headline': 'b' })
    expect(segment).toBe('de~hero-headline.b~pricing-copy.c')
    expect(parseVariantSegment(segment)).toEqual({ language: 'de', shown: { 'hero-headline': 'b', 'pricing-copy': 'c' }, campaigns: [] })
    expect(parseVariantSegment('en')).toEqual({ language: 'en', shown: {}, campaigns: [] })
    for (const forged of [
      'en~pricing-copy.c~hero-headline.b',
      'en~hero-headline.b~hero-headline.c',
      'en~Hero.b',
      'en~hero-headline',
      'en~hero-headline.b.c',
      'en~hero-headline.B',
    ]) {
      expect(parseVariantSegment(forged), forged).toBeNull()
    }
  })

  it('names the campaign versions first, sorted, each once, and reads back only what it writes', () => {
    const segment = variantSegment('en', { 'pricing-copy': 'c' }, ['pm-linkedin-hero', 'founders-cards', 'pm-linkedin-hero', 'Not A Key'])
    expect(segment).toBe('en~_founders-cards~_pm-linkedin-hero~pricing-copy.c')
    expect(parseVariantSegment(segment)).toEqual({ language: 'en', shown: { 'pricing-copy': 'c' }, campaigns: ['founders-cards', 'pm-linkedin-hero'] })
    expect(parseVariantSegment('de~_pm-hero')).toEqual({ language: 'de', shown: {}, campaigns: ['pm-hero'] })
    const many = Array.from({ length: 11 }, (_, index) => `_c${String(index).padStart(2, '0')}`)
    for (const forged of [
      'en~_pm-linkedin-hero~_founders-cards',
      'en~_pm-hero~_pm-hero',
      'en~_PM',
      'en~_',
      'en~__pm-hero',
      'en~pricing-copy.c~_pm-hero',
      `en~${many.join('~')}`,
      'en~_pm-hero.b',
    ]) {
      expect(parseVariantSegment(forged), forged).toBeNull()
    }
  })
})

const SITE = 'https://heardly.example'
const HERO_ALL_B: ExperimentSplit = { key: 'hero-headline', variants: [{ key: 'b', share: 100 }] }
const ABOUT_ALL_LONG: ExperimentSplit = { key: 'about-story', variants: [{ key: 'long', share: 100 }] }
const GRANTED = 'consent=granted'
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'

function parseSetCookie(header: string) {
  const [pair = '', ...attributes] = header.split('; ')
  const at = pair.indexOf('=')
  return { name: pair.slice(0, at), value: pair.slice(at + 1), attributes }
}

async function visit(path: string, headers: Record<string, string> = {}) {
  const response = await proxy(new NextRequest(new URL(path, SITE), { headers: { 'user-agent': CHROME, ...headers } }))
  const rewrite = response.headers.get('x-middleware-rewrite')
  // The header as the browser gets it: what document.cookie then shows the join form.
  const header = response.headers.get('set-cookie')
  return {
    status: response.status,
    rewrite: rewrite ? new URL(rewrite).pathname : null,
    next: response.headers.get('x-middleware-next') === '1',
    cookie: header ? parseSetCookie(header) : null,
    vary: response.headers.get('vary'),
    cacheControl: response.headers.get('cache-control'),
  }
}

describe('the proxy', () => {
  beforeEach(() => {
    known.running = {
      byPath: new Map([
        ['/', [HERO_ALL_B]],
        ['/de', [HERO_ALL_B]],
        ['/about', [ABOUT_ALL_LONG]],
      ]),
    }
  })

  it('rewrites a consenting visitor to the variant page, in their language, and sets the cookie once', async () => {
    const first = await visit('/', { cookie: GRANTED })
    expect(first).toMatchObject({ status: 200, rewrite: '/en~hero-headline.b' })
    // Written as serializeAssignments writes it, not percent-encoded; readable by the join form (no HttpOnly).
    expect(first.cookie).toEqual({
      name: 'experiments',
      value: 'hero-headline=b',
      attributes: ['Path=/', `Max-Age=${90 * 24 * 60 * 60}`, 'SameSite=Lax', 'Secure'],
    })
    expect(await visit('/de', { cookie: GRANTED })).toMatchObject({ rewrite: '/de~hero-headline.b' })
    // The next visit holds the cookie: the same variant, nothing set again.
    expect(await visit('/', { cookie: `${GRANTED}; experiments=hero-headline=b` })).toMatchObject({ rewrite: '/en~hero-headline.b', cookie: null })
  })

  it('keeps a participant’s variant across pages, and adds the next page’s experiment beside it', async () => {
    const about = await visit('/about', { cookie: `${GRANTED}; experiments=hero-headline=control` })
    expect(about).toMatchObject({ rewrite: '/en~about-story.long/about' })
    expect(about.cookie?.value).toBe('about-story=long&hero-headline=control')
    expect(await visit('/', { cookie: `${GRANTED}; experiments=hero-headline=control&about-story=long` })).toMatchObject({
      rewrite: '/en~hero-headline.control',
      cookie: null,
    })
  })

  it.each([
    ['no choice', {}],
    ['declined (no consent cookie)', { cookie: 'experiments=hero-headline=b' }],
    ['a forged consent value', { cookie: 'consent=yes' }],
    ['Global Privacy Control', { cookie: GRANTED, 'sec-gpc': '1' }],
    ['Do Not Track', { cookie: GRANTED, dnt: '1' }],
    ['a crawler', { cookie: GRANTED, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }],
    ['a headless browser', { cookie: GRANTED, 'user-agent': 'Mozilla/5.0 HeadlessChrome/140.0.0.0 Safari/537.36' }],
  ])('shows control and stores nothing for %s', async (_, headers: Record<string, string>) => {
    expect(await visit('/', headers)).toMatchObject({ status: 200, rewrite: '/en', cookie: null })
    expect(await visit('/de', headers)).toMatchObject({ status: 200, next: true, cookie: null })
  })

  it('shows control for a forged cookie naming an unknown variant, and ignores unknown experiments', async () => {
    expect(await visit('/', { cookie: `${GRANTED}; experiments=hero-headline=zzz` })).toMatchObject({ rewrite: '/en', cookie: null })
    const unknown = await visit('/', { cookie: `${GRANTED}; experiments=no-such-test=b` })
    expect(unknown).toMatchObject({ rewrite: '/en~hero-headline.b' })
    expect(unknown.cookie?.value).toBe('hero-headline=b&no-such-test=b')
    expect(await visit('/', { cookie: `${GRANTED}; experiments=hero-headline=b%0d%0aSet-Cookie` })).toMatchObject({ rewrite: '/en~hero-headline.b' })
  })

  it('leaves a page no running experiment varies as it was, and shows control when the experiments cannot be read', async () => {
    expect(await visit('/privacy', { cookie: GRANTED })).toMatchObject({ rewrite: '/en/privacy', cookie: null })
    known.running = null
    expect(await visit('/', { cookie: GRANTED })).toMatchObject({ rewrite: '/en', cookie: null })
  })

  it('tells caches in front of the site that a varied page depends on the cookies, whoever asks', async () => {
    // A shared cache keyed on the address alone would hand one participant's variant to everyone, crawlers included.
    for (const headers of [
      { cookie: GRANTED },
      {},
      { cookie: GRANTED, 'sec-gpc': '1' },
      { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
    ] as Record<string, string>[]) {
      expect((await visit('/', headers)).vary, JSON.stringify(headers)).toBe('Accept, Cookie')
      expect((await visit('/de', headers)).vary, JSON.stringify(headers)).toBe('Accept, Cookie')
    }
    expect((await visit('/privacy', { cookie: GRANTED })).vary).toBe('Accept')
    known.running = null
    expect((await visit('/', { cookie: GRANTED })).vary).toBe('Accept')
  })

  it('keeps every participant’s answer out of shared caches (private), and leaves control cacheable for everyone else', async () => {
    // A CDN that ignores Vary: Cookie (many do) still must not hand a variant, or the cookie that assigned it, to the next visitor.
    for (const cookie of [GRANTED, `${GRANTED}; experiments=hero-headline=b`, `${GRANTED}; experiments=hero-headline=control`]) {
      expect(await visit('/', { cookie }), cookie).toMatchObject({ cacheControl: 'private, no-store' })
      expect(await visit('/de', { cookie }), cookie).toMatchObject({ cacheControl: 'private, no-store' })
    }
    for (const headers of [{}, { cookie: 'experiments=hero-headline=b' }, { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' }] as Record<
      string,
      string
    >[]) {
      expect(await visit('/', headers), JSON.stringify(headers)).toMatchObject({ rewrite: '/en', cacheControl: null })
    }
    expect(await visit('/privacy', { cookie: GRANTED })).toMatchObject({ cacheControl: null })
  })

  // A prerendered page (components/site/speculation-rules.tsx) writes nothing before it is shown.
  describe.each(['prefetch;prerender', 'prefetch'])('asked for by the speculation rules (Sec-Purpose: %s)', (purpose) => {
    it('declines the page that would assign a participant their variant: no cookie, nothing a cache keeps, not a 2xx', async () => {
      const declined = await visit('/', { cookie: GRANTED, 'sec-purpose': purpose })
      expect(declined).toMatchObject({ status: 503, rewrite: null, next: false, cookie: null, cacheControl: 'private, no-store' })
      // The same visitor's click then loads the page and is assigned as ever.
      expect(await visit('/', { cookie: GRANTED })).toMatchObject({ status: 200, rewrite: '/en~hero-headline.b', cookie: { value: 'hero-headline=b' } })
    })

    it('prerenders a participant’s held variant, and everyone else’s page, writing nothing', async () => {
      expect(await visit('/', { cookie: `${GRANTED}; experiments=hero-headline=b`, 'sec-purpose': purpose })).toMatchObject({
        status: 200,
        rewrite: '/en~hero-headline.b',
        cookie: null,
      })
      expect(await visit('/', { 'sec-purpose': purpose })).toMatchObject({ status: 200, rewrite: '/en', cookie: null })
      expect(await visit('/privacy', { cookie: GRANTED, 'sec-purpose': purpose })).toMatchObject({ status: 200, rewrite: '/en/privacy', cookie: null })
    })
  })

  it('answers 404 for a variant page’s internal address asked for directly', async () => {
    for (const path of ['/en~hero-headline.b', '/en~hero-headline.b/about', '/de~hero-headline.b', '/de/en~hero-headline.b']) {
      expect((await visit(path, { cookie: GRANTED })).status, path).toBe(404)
    }
  })

  it('lets a draft preview see the page, not a variant, and no shared cache keep it', async () => {
    vi.stubEnv('__NEXT_PREVIEW_MODE_ID', 'preview')
    expect(await visit('/', { cookie: `${GRANTED}; __prerender_bypass=preview` })).toMatchObject({
      rewrite: '/en',
      cookie: null,
      cacheControl: 'private, no-store',
    })
    // A cookie of that name Next would not accept is a visitor's: they take part as anyone does.
    expect(await visit('/', { cookie: `${GRANTED}; __prerender_bypass=forged` })).toMatchObject({ rewrite: '/en~hero-headline.b' })
    vi.unstubAllEnvs()
  })
})

describe('the proxy, for an address naming a campaign', () => {
  const heroPm: LiveCampaign = { key: 'pm-hero', utmCampaign: 'pm-linkedin', utmSource: null, sectionKey: 'hero' }
  const cardsPm: LiveCampaign = { key: 'pm-cards', utmCampaign: 'pm-linkedin', utmSource: null, sectionKey: 'cards' }
  const privacyPm: LiveCampaign = { key: 'pm-privacy', utmCampaign: 'pm-linkedin', utmSource: 'linkedin', sectionKey: 'intro' }
  beforeEach(() => {
    known.running = { byPath: new Map([['/', [{ ...HERO_ALL_B, sectionKey: 'hero' }]]]) }
    known.campaigns = new Map([
      ['/', [heroPm]],
      ['/de', [heroPm]],
      ['/privacy', [privacyPm]],
    ])
  })

  it('draws its versions for anyone, with no cookie, consent or not', async () => {
    expect(await visit('/?utm_campaign=pm-linkedin')).toMatchObject({ status: 200, rewrite: '/en~_pm-hero', cookie: null })
    expect(await visit('/de?utm_campaign=pm-linkedin&utm_source=x')).toMatchObject({ rewrite: '/de~_pm-hero', cookie: null })
    // The experiment on the same section takes nobody here: no assignment, no cookie.
    expect(await visit('/?utm_campaign=pm-linkedin', { cookie: GRANTED })).toMatchObject({ rewrite: '/en~_pm-hero', cookie: null })
  })

  it('keeps a participant’s experiment on another section beside the campaign’s version', async () => {
    known.campaigns = new Map([['/', [cardsPm]]])
    const both = await visit('/?utm_campaign=pm-linkedin', { cookie: GRANTED })
    expect(both).toMatchObject({ rewrite: '/en~_pm-cards~hero-headline.b', vary: 'Accept, User-Agent, Cookie', cacheControl: 'private, no-store' })
    expect(both.cookie?.value).toBe('hero-headline=b')
  })

  it('with the experiment on its own section only, the version depends on no cookie: a shared cache may keep it', async () => {
    for (const headers of [{}, { cookie: GRANTED }, { cookie: `${GRANTED}; experiments=hero-headline=b` }] as Record<string, string>[])
      expect(await visit('/?utm_campaign=pm-linkedin', headers), JSON.stringify(headers)).toMatchObject({
        rewrite: '/en~_pm-hero',
        vary: 'Accept, User-Agent',
        cacheControl: null,
        cookie: null,
      })
  })

  it('a page that only a campaign changes depends on its address and the user agent alone: not on cookies, and not private', async () => {
    expect(await visit('/privacy?utm_source=linkedin&utm_campaign=pm-linkedin')).toMatchObject({
      rewrite: '/en~_pm-privacy/privacy',
      // Its Markdown twin's negotiation, as without the campaign; a crawler gets the page as published.
      vary: 'Accept, User-Agent',
      cacheControl: null,
    })
    expect(
      await visit('/privacy?utm_source=linkedin&utm_campaign=pm-linkedin', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' }),
    ).toMatchObject({
      rewrite: '/en/privacy',
      vary: 'Accept, User-Agent',
      cacheControl: null,
    })
    // Without tags naming a version the user agent changes nothing.
    expect((await visit('/privacy?utm_campaign=founders')).vary).toBe('Accept')
    // Its version names a source: without it, or with another, the page is as published.
    expect(await visit('/privacy?utm_campaign=pm-linkedin')).toMatchObject({ rewrite: '/en/privacy' })
    expect(await visit('/privacy?utm_campaign=pm-linkedin&utm_source=newsletter')).toMatchObject({ rewrite: '/en/privacy' })
  })

  it.each([
    ['another campaign', '/?utm_campaign=founders'],
    ['its tags in another case', '/?utm_campaign=PM-LinkedIn'],
    ['its value in another parameter', '/?utm_source=pm-linkedin'],
    ['a second tag after another one', '/?utm_campaign=founders&utm_campaign=pm-linkedin'],
    ['an empty tag', '/?utm_campaign='],
  ])('draws the page as published for %s', async (_, path) => {
    expect(await visit(path)).toMatchObject({ status: 200, rewrite: '/en', cookie: null })
  })

  it('draws the page as published for a crawler, whatever its address says', async () => {
    const googlebot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
    expect(await visit('/?utm_campaign=pm-linkedin', { 'user-agent': googlebot })).toMatchObject({ rewrite: '/en', cookie: null })
  })
})
