import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { serverEnv } from '@/lib/env'
import { contentTokens, toSectionPage } from '@/sanity/content/reshape'
import { applySampleRule, withoutSamples } from '@/sanity/content/sample'
import { evaluateQuery, parseNdjson } from '@/sanity/seed/dataset'
import type { Section, SectionOf } from '@/sanity/content/types'
import { landingPageQuery, siteSettingsQuery } from '@/sanity/queries'
import type { LandingPageQueryResult, SiteSettingsQueryResult } from '@/sanity/types.generated'

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'seed')
const query = async <T>(q: string) => (await evaluateQuery(seed, q, { language: 'en' })) as NonNullable<T>

/** Anything still flagged, anywhere in a value. */
function flagged(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(flagged)
  if (!value || typeof value !== 'object') return []
  return [...((value as { isSample?: unknown }).isSample === true ? [value] : []), ...Object.values(value).flatMap(flagged)]
}

describe('the sample rule', async () => {
  const settings = await query<SiteSettingsQueryResult>(siteSettingsQuery)
  const landing = toSectionPage(await query<LandingPageQueryResult>(landingPageQuery), contentTokens(settings))
  afterEach(() => vi.restoreAllMocks())

  it('defaults to showing samples on a developer machine and hiding them in a deployment build', () => {
    expect(serverEnv({ NODE_ENV: 'development' }).sampleContent).toBe('show')
    expect(serverEnv({ NODE_ENV: 'production', EMBEDDED_DEFAULTS: 'true' }).sampleContent).toBe('show')
    expect(serverEnv({ NODE_ENV: 'production' }).sampleContent).toBe('hide')
    // A preview deployment may opt in; a developer may check what a deployment shows.
    expect(serverEnv({ NODE_ENV: 'production', SAMPLE_CONTENT: 'show' }).sampleContent).toBe('show')
    expect(serverEnv({ NODE_ENV: 'development', SAMPLE_CONTENT: 'hide' }).sampleContent).toBe('hide')
    expect(() => serverEnv({ NODE_ENV: 'production', SAMPLE_CONTENT: 'yes' })).toThrow(/SAMPLE_CONTENT/)
  })

  it('leaves nothing flagged on the seed landing page, and keeps everything else', () => {
    expect(flagged(landing.sections).length).toBeGreaterThan(0)
    const { sections, hidden } = withoutSamples(landing.sections)
    expect(flagged(sections)).toEqual([])
    // The logo strip held only samples: it hides itself instead of showing an empty strip.
    expect(sections.map((s) => s._type)).toEqual(landing.sections.map((s) => s._type).filter((type) => type !== 'logoStripSection'))
    // The closing call to action stays, without its made-up testimonial.
    const cta = sections.find((s): s is SectionOf<'ctaSection'> => s._type === 'ctaSection')
    expect(cta?.testimonial).toBeNull()
    expect(cta?.title).toBe(landing.sections.find((s): s is SectionOf<'ctaSection'> => s._type === 'ctaSection')?.title)
    expect(hidden).toEqual(expect.arrayContaining(['logoStrip item "Northwind"', expect.stringMatching(/^cta testimonial "/)]))
  })

  it('keeps a real item beside sample ones, and the strip with it', () => {
    const strip = landing.sections.find((s): s is SectionOf<'logoStripSection'> => s._type === 'logoStripSection')!
    const mixed: Section = { ...strip, items: [...strip.items, { ...strip.items[0]!, _key: 'real', name: 'Real Co', isSample: false }] }
    const { sections, hidden } = withoutSamples([mixed])
    expect((sections[0] as SectionOf<'logoStripSection'>).items.map((item) => item.name)).toEqual(['Real Co'])
    expect(hidden).toHaveLength(strip.items.length)
  })

  it('drops a section flagged as a whole (a sample testimonial section)', () => {
    const section = { _key: 't', _type: 'testimonialSection', anchorId: null, quote: 'q', author: 'Made Up', role: 'r', isSample: true } as Section
    expect(withoutSamples([section])).toEqual({ sections: [], hidden: ['testimonial "Made Up"'] })
  })

  it('prints once per page what a deployment leaves out, and nothing when samples are shown', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(applySampleRule(landing, '/', 'show')).toBe(landing)
    expect(warn).not.toHaveBeenCalled()
    applySampleRule(landing, '/', 'hide')
    applySampleRule(landing, '/', 'hide')
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toMatch(/Sample content not shown on \/ .*"Northwind"/)
  })
})
