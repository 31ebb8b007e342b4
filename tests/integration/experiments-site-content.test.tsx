import { readFileSync } from 'node:fs'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { evaluateQuery, parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'
import { schemaTypes } from '@/sanity/schemaTypes'
import { validateDocuments } from '@/sanity/validate-documents'
import { landingPageQuery, liveCampaignsQuery, runningExperimentsQuery, siteSettingsQuery } from '@/sanity/queries'
import type {
  CampaignQueryResult,
  ExperimentQueryResult,
  LandingPageQueryResult,
  LiveCampaignsQueryResult,
  RunningExperimentsQueryResult,
  SiteSettingsQueryResult,
} from '@/sanity/types.generated'
import { contentTokens, toSectionPage, toSiteSettings } from '@/sanity/content/reshape'
import { forgetAddresses } from '@/sanity/content/addresses'
import { campaignVersionsFor, toLiveCampaigns } from '@/sanity/variants/live-campaigns'
import { editorsCampaignExample } from '@/tools/content/experiment-example'

// The experiment document as the Studio and `content:publish` judge it, its GROQ over the seed,
// the variant page it draws, and what a publish (stop, promote) changes without a rebuild; and the
// campaign version (issue #55) the same way, with its precedence over an experiment.

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'seed')
/** The editors' guide's example, as an editor copies it. */
const example = JSON.parse(/## Experiments[\s\S]*?```json\n([\s\S]*?)\n```/.exec(readFileSync('docs/editors.md', 'utf8'))![1]!) as SeedDocument & {
  variants: { key: string; share: number; sections: { language: string; sections: Record<string, unknown>[] }[] }[]
  target: { sectionKey: string }
}
const HERO = example.target.sectionKey
const campaignExample = editorsCampaignExample()

const content = vi.hoisted(() => ({ dataset: [] as SeedDocument[], failing: false }))
vi.mock('@/sanity/content/published', () => ({
  readPublished: (query: string, params = {}) =>
    content.failing ? Promise.reject(new Error('Service unavailable')) : evaluateQuery(content.dataset, query, params),
}))
vi.mock('@/sanity/content', async () => {
  const reshape = await import('@/sanity/content/reshape')
  const queries = await import('@/sanity/queries')
  const { evaluateQuery: run } = await import('@/sanity/seed/dataset')
  return {
    getCampaign: async (key: string, language: string) => {
      const raw = (await run(content.dataset, queries.campaignQuery, { key, language })) as CampaignQueryResult
      const settings = (await run(content.dataset, queries.siteSettingsQuery, { language })) as NonNullable<SiteSettingsQueryResult>
      return raw ? reshape.toCampaign(raw, reshape.contentTokens(settings), language) : null
    },
    getExperiment: async (key: string, language: string) => {
      const raw = (await run(content.dataset, queries.experimentQuery, { key, language })) as ExperimentQueryResult
      const settings = (await run(content.dataset, queries.siteSettingsQuery, { language })) as NonNullable<SiteSettingsQueryResult>
      return raw ? reshape.toExperiment(raw, reshape.contentTokens(settings), language) : null
    },
  }
})

const { withVariants } = await import('@/components/variants/variant-page')
const { runningExperiments, toRunningExperiments } = await import('@/components/variants/running')
const { PageBuilder } = await import('@/components/sections/page-builder')

const withDoc = (dataset: SeedDocument[], ...docs: SeedDocument[]) => [...dataset.filter((doc) => !docs.some((d) => d._id === doc._id)), ...docs]
const experiment = (changes: Record<string, unknown> = {}) => ({ ...structuredClone(example), ...changes }) as SeedDocument
const problemsWith = (...docs: SeedDocument[]) => validateDocuments(schemaTypes as never, withDoc(seed, ...docs))

async function landing(dataset: SeedDocument[], shown: Record<string, string>, language = 'en', campaigns: string[] = []) {
  const settings = (await evaluateQuery(dataset, siteSettingsQuery, { language })) as NonNullable<SiteSettingsQueryResult>
  const page = toSectionPage(
    (await evaluateQuery(dataset, landingPageQuery, { language })) as NonNullable<LandingPageQueryResult>,
    contentTokens(settings),
    language,
  )
  const { sections, marks } = await withVariants(page.sections, { shown, campaigns }, language)
  return renderToStaticMarkup(
    <PageBuilder title={page.title} sections={sections} marks={marks} context={{ settings: toSiteSettings(settings, language), ctaLocation: 'cta' }} />,
  )
}

describe('the experiment document', () => {
  it('accepts the editors’ guide’s example as content:publish does', async () => {
    expect(await problemsWith(experiment())).toEqual([])
    expect(await problemsWith(experiment({ state: 'draft', variants: example.variants.map((v) => ({ ...v, share: 100 })) }))).toEqual([])
  })

  it('refuses shares over 100 %, a section not on the page, duplicate and malformed keys', async () => {
    const twice = [example.variants[0]!, { ...example.variants[0]!, _key: 'variant-c', share: 60 }]
    expect(await problemsWith(experiment({ variants: twice }))).toEqual([expect.stringMatching(/variants: The variants take 110 % of visitors/)])
    expect(
      await problemsWith(
        experiment({
          variants: [
            { ...twice[0], share: 10 },
            { ...twice[1], share: 10 },
          ],
        }),
      ),
    ).toEqual([expect.stringMatching(/variants: Two variants use the key "b"/)])
    expect(await problemsWith(experiment({ target: { ...example.target, sectionKey: 'not-on-page' } }))).toEqual([
      expect.stringMatching(/target: The page has no section with the key "not-on-page" \(in de, en\)/),
    ])
    expect(await problemsWith(experiment({ key: { _type: 'slug', current: 'Hero Headline' } }))).toEqual([expect.stringMatching(/key: Use 2 to 40 lowercase/)])
    expect(await problemsWith(experiment({ variants: [{ ...example.variants[0], key: 'control' }] }))).toEqual([
      expect.stringMatching(/"control" is the section as published/),
    ])
    expect((await problemsWith(experiment(), experiment({ _id: 'experiment-copy' }))).sort()).toEqual([
      expect.stringMatching(/^experiment-copy\.key: Another experiment already has the key "hero-headline"/),
      expect.stringMatching(/^experiment-hero-headline\.key: Another experiment already has the key "hero-headline"/),
    ])
  })

  it('holds the variant’s words to the section’s own rules (plain text, lengths) and one section per language', async () => {
    const [variant] = example.variants
    const forged = { ...variant, sections: [{ ...variant!.sections[0], sections: [{ ...variant!.sections[0]!.sections[0], title: 'Hear every\u202euser.' }] }] }
    expect(await problemsWith(experiment({ variants: [forged] }))).toEqual([expect.stringMatching(/variants.*title/)])
    const twice = { ...variant, sections: [variant!.sections[0], { ...variant!.sections[0], _key: 'en-2' }] }
    expect(await problemsWith(experiment({ variants: [twice] }))).toEqual([expect.stringMatching(/Two sections are for the language "en"/)])
    const foreign = { ...variant, sections: [{ ...variant!.sections[0], language: 'fr' }] }
    expect(await problemsWith(experiment({ variants: [foreign] }))).toEqual([expect.stringMatching(/The page is not published in fr/)])
  })
})

describe('running experiments, as the proxy reads them', () => {
  const read = async (dataset: SeedDocument[]) => toRunningExperiments((await evaluateQuery(dataset, runningExperimentsQuery)) as RunningExperimentsQueryResult)

  it('names the page it varies in every language, with the variants’ shares', async () => {
    const { byPath } = await read(withDoc(seed, experiment()))
    expect([...byPath.keys()].sort()).toEqual(['/', '/de'])
    expect(byPath.get('/de')).toEqual([{ key: 'hero-headline', variants: [{ key: 'b', share: 50 }], sectionKey: HERO }])
  })

  it('leaves out a language a variant has no section in, so nobody is counted for what they were not shown', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const englishOnly = example.variants.map((variant) => ({ ...variant, sections: variant.sections.filter((section) => section.language === 'en') }))
    expect([...(await read(withDoc(seed, experiment({ variants: englishOnly })))).byPath.keys()]).toEqual(['/'])
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('is not run on /de: the variant(s) b have no section in de'))
    warn.mockRestore()
  })

  it('runs only published, running experiments', async () => {
    expect((await read(withDoc(seed, experiment({ state: 'stopped' })))).byPath.size).toBe(0)
    expect((await read(withDoc(seed, experiment({ state: 'draft' })))).byPath.size).toBe(0)
    expect((await read(withDoc(seed, experiment({ _id: 'drafts.experiment-hero-headline' })))).byPath.size).toBe(0)
  })

  it('leaves out a page that lost the varied section, and says so once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const landingDe = seed.find((doc) => doc._id === 'landingPage-de') as SeedDocument & { sections: { _key: string }[] }
    const dataset = withDoc(seed, experiment(), { ...landingDe, sections: landingDe.sections.filter((section) => section._key !== HERO) })
    expect([...(await read(dataset)).byPath.keys()]).toEqual(['/'])
    await read(dataset)
    expect(warn.mock.calls.filter(([message]) => String(message).includes('/de'))).toHaveLength(1)
    warn.mockRestore()
  })
})

describe('the variant page', () => {
  const dataset = withDoc(seed, experiment())
  beforeEach(() => {
    content.dataset = dataset
  })

  it('draws the variant’s section in place of the page’s, marked for the exposure, in each language', async () => {
    const b = await landing(dataset, { 'hero-headline': 'b' })
    expect(b).toContain('Hear every user.')
    expect(b).not.toContain('Talk to every user.')
    expect(b).toContain('data-experiment="hero-headline" data-experiment-variant="b"')
    expect(b).toContain('id="hero-title"')
    expect(await landing(dataset, { 'hero-headline': 'b' }, 'de')).toContain('Hören Sie jeden Nutzer.')
  })

  it('marks control for its participants, and draws the published page for a variant that does not exist', async () => {
    const control = await landing(dataset, { 'hero-headline': 'control' })
    expect(control).toContain('Talk to every user.')
    expect(control).toContain('data-experiment-variant="control"')
    const forged = await landing(dataset, { 'hero-headline': 'zzz', 'no-such-test': 'b' })
    expect(forged).toContain('Talk to every user.')
    expect(forged).not.toContain('data-experiment')
  })

  it('falls back to control when the section was deleted from the page, logged once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const landingEn = seed.find((doc) => doc._id === 'landingPage') as SeedDocument & { sections: { _key: string }[] }
    const [hero, ...rest] = landingEn.sections
    const moved = withDoc(dataset, { ...landingEn, sections: [{ ...hero!, _key: 'a-new-hero' }, ...rest] })
    const html = await landing(moved, { 'hero-headline': 'b' })
    await landing(moved, { 'hero-headline': 'b' })
    expect(html).toContain('Talk to every user.')
    expect(html).not.toContain('data-experiment')
    expect(warn.mock.calls.filter(([message]) => String(message).includes('"hero-headline" shows control'))).toHaveLength(1)
    warn.mockRestore()
  })
})

describe('stopping and promoting, without a rebuild', () => {
  beforeEach(() => {
    content.dataset = withDoc(seed, experiment())
    forgetAddresses()
  })
  afterEach(() => forgetAddresses())

  it('stopping it: after its publish (the webhook forgets the addresses) nobody is rewritten, and a variant page draws control', async () => {
    expect((await runningExperiments()).byPath.has('/')).toBe(true)
    content.dataset = withDoc(content.dataset, experiment({ state: 'stopped' }))
    // Until the webhook arrives the list in hand answers; then it is read again.
    expect((await runningExperiments()).byPath.has('/')).toBe(true)
    forgetAddresses()
    expect((await runningExperiments()).byPath.has('/')).toBe(false)
    const html = await landing(content.dataset, { 'hero-headline': 'b' })
    expect(html).toContain('Talk to every user.')
    expect(html).not.toContain('data-experiment')
  })

  it('the content API failing during a publish: the experiments in hand go on running, and the publish is read a second later', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      const now = Date.now()
      expect((await runningExperiments(now)).byPath.has('/')).toBe(true)
      content.dataset = withDoc(content.dataset, experiment({ state: 'stopped' }))
      content.failing = true
      forgetAddresses()
      // A participant is still shown their variant, as their cookie (and their sign-up) says.
      expect((await runningExperiments(now + 10)).byPath.has('/')).toBe(true)
      expect(error).toHaveBeenCalledWith(expect.stringContaining('the last ones read answer meanwhile'))
      content.failing = false
      // Within the second the list in hand answers without a read; after it, the publish is read.
      expect((await runningExperiments(now + 500)).byPath.has('/')).toBe(true)
      expect((await runningExperiments(now + 1_100)).byPath.has('/')).toBe(false)
    } finally {
      content.failing = false
      error.mockRestore()
    }
  })

  it('promoting a variant: its section pasted into the page and the experiment stopped, everyone sees it', async () => {
    const variantSection = (language: string) => ({ ...example.variants[0]!.sections.find((s) => s.language === language)!.sections[0]!, _key: HERO })
    const promoted = ['landingPage', 'landingPage-de'].map((id) => {
      const page = seed.find((doc) => doc._id === id) as SeedDocument & { sections: { _key: string }[]; language: string }
      return { ...page, sections: page.sections.map((section) => (section._key === HERO ? variantSection(page.language) : section)) }
    })
    content.dataset = withDoc(content.dataset, ...promoted, experiment({ state: 'stopped' }))
    forgetAddresses()
    expect((await runningExperiments()).byPath.size).toBe(0)
    expect(await landing(content.dataset, {})).toContain('Hear every user.')
    expect(await landing(content.dataset, {}, 'de')).toContain('Hören Sie jeden Nutzer.')
    // The experiment still names a section that is on the page: it could run again.
    expect(await problemsWith(experiment({ state: 'stopped' }), ...promoted)).toEqual([])
  })
})

describe('the Cookie Policy', () => {
  it('lists the consent and experiments cookies with their lifetimes, in every language', async () => {
    const { CONSENT_COOKIE, CONSENT_COOKIE_MAX_AGE_SECONDS } = await import('@/components/analytics/consent-cookie')
    const { EXPERIMENTS_COOKIE, EXPERIMENTS_COOKIE_MAX_AGE_SECONDS } = await import('@/sanity/variants/assignments')
    const DAY = 24 * 60 * 60
    expect(CONSENT_COOKIE_MAX_AGE_SECONDS / DAY).toBe(365)
    // Each cookie's name, then the text of its line: what it is and how long it is kept.
    const line = (name: string, lifetime: string) => new RegExp(`"text":"${name}"\\}[^}]*${lifetime}`)
    for (const [id, year, days] of [
      ['page-cookies', '1 year', 'days'],
      ['page-cookies-de', '1 Jahr', 'Tage'],
    ] as const) {
      const policy = JSON.stringify(seed.find((doc) => doc._id === id))
      expect(policy).toMatch(line(CONSENT_COOKIE, year))
      expect(policy).toMatch(line(EXPERIMENTS_COOKIE, `${EXPERIMENTS_COOKIE_MAX_AGE_SECONDS / DAY} ${days}`))
    }
  })
})

describe('a campaign version', () => {
  const version = (changes: Record<string, unknown> = {}) => ({ ...structuredClone(campaignExample), ...changes }) as SeedDocument
  const live = async (dataset: SeedDocument[]) => toLiveCampaigns((await evaluateQuery(dataset, liveCampaignsQuery)) as LiveCampaignsQueryResult)
  const PM = campaignExample.sections.find((section) => section.language === 'en')!.sections[0]!.title
  const PM_DE = campaignExample.sections.find((section) => section.language === 'de')!.sections[0]!.title

  it('accepts the editors’ guide’s example as content:publish does, and refuses what the Studio refuses', async () => {
    expect(await problemsWith(version())).toEqual([])
    expect(await problemsWith(version({ key: { _type: 'slug', current: 'PM' } }))).toEqual([expect.stringMatching(/key: Use 2 to 40 lowercase/)])
    expect(await problemsWith(version({ utmCampaign: ' pm-linkedin' }))).toEqual([
      expect.stringMatching(/utmCampaign: The site reads utm_campaign as "pm-linkedin"/),
    ])
    expect(await problemsWith(version({ utmSource: 'linked\u200bin' }))).toEqual([expect.stringMatching(/utmSource: The site reads utm_source/)])
    expect(await problemsWith(version({ target: { ...campaignExample.target, sectionKey: 'nope' } }))).toEqual([
      expect.stringMatching(/target: The page has no section with the key "nope"/),
    ])
    // A second version answering the same tags on the same section, published beside the first.
    const twin = version({ _id: 'campaign-twin', key: { _type: 'slug', current: 'pm-twin' } })
    expect(await validateDocuments(schemaTypes as never, withDoc(seed, version(), twin))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/utmCampaign: The campaign "pm-(linkedin-hero|twin)" already answers utm_campaign=pm-linkedin on this page/),
      ]),
    )
    // The same tags with a source named are another audience.
    expect(await validateDocuments(schemaTypes as never, withDoc(seed, version(), { ...twin, utmSource: 'linkedin' }))).toEqual([])
  })

  it('is shown on the page it changes, in each language it is written in, to the addresses naming its tags', async () => {
    const byPath = await live(withDoc(seed, version()))
    expect([...byPath.keys()].sort()).toEqual(['/', '/de'])
    const query = (search: string) => new URLSearchParams(search)
    expect(campaignVersionsFor(byPath.get('/'), query('utm_campaign=pm-linkedin&utm_source=linkedin')).map((v) => v.key)).toEqual(['pm-linkedin-hero'])
    expect(campaignVersionsFor(byPath.get('/'), query('utm_campaign=PM-LinkedIn'))).toEqual([])
    expect(campaignVersionsFor(byPath.get('/about'), query('utm_campaign=pm-linkedin'))).toEqual([])
    const englishOnly = version({ sections: campaignExample.sections.filter((section) => section.language === 'en') })
    expect([...(await live(withDoc(seed, englishOnly))).keys()]).toEqual(['/'])
    expect((await live(withDoc(seed, version({ _id: 'drafts.campaign-pm-linkedin-hero' })))).size).toBe(0)
  })

  it('leaves out a version whose tags break the Studio’s rules, said once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect((await live(withDoc(seed, version({ utmCampaign: 'pm\u202elinkedin' })))).size).toBe(0)
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"pm-linkedin-hero" is not shown'))
    warn.mockRestore()
  })

  it('draws its section in place of the page’s, in each language, and takes it from an experiment there: no mark, no exposure', async () => {
    const dataset = withDoc(seed, experiment(), version())
    content.dataset = dataset
    const html = await landing(dataset, {}, 'en', ['pm-linkedin-hero'])
    expect(html).toContain(PM)
    expect(html).not.toContain('Talk to every user.')
    expect(html).toContain('id="hero-title"')
    expect(await landing(dataset, {}, 'de', ['pm-linkedin-hero'])).toContain(PM_DE)
    // A participant holding variant b of the experiment on the same section.
    const both = await landing(dataset, { 'hero-headline': 'b' }, 'en', ['pm-linkedin-hero'])
    expect(both).toContain(PM)
    expect(both).not.toContain('Hear every user.')
    expect(both).not.toContain('data-experiment')
  })

  it('unpublished, its page draws the page as published, said once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    content.dataset = seed
    const html = await landing(seed, {}, 'en', ['pm-linkedin-hero'])
    expect(html).toContain('Talk to every user.')
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('"pm-linkedin-hero" shows the page as published'))
    warn.mockRestore()
  })
})
