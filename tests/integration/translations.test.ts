import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { MISSING_TRANSLATION } from '@/sanity/fragments'
import { SINGLETONS, TRANSLATED_TYPES } from '@/sanity/schemaTypes'
import { evaluateQuery, parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'
import { toSiteLanguages } from '@/sanity/content/reshape'

// The seed's translations and the Studio's view of them, on groq-js: German is complete and marked
// for review, the legal pages say which language binds, the Studio's "Missing translations" finds
// what a language lacks, and the languages fall back to English alone without their document.

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'production.ndjson')
const singletons = SINGLETONS.map(({ type }) => type)
const missing = (dataset: SeedDocument[], language = 'de') =>
  evaluateQuery(dataset, `*[${MISSING_TRANSLATION}]._id`, { types: TRANSLATED_TYPES, singletons, base: 'en', language }) as Promise<string[]>
const byId = (id: string) => seed.find((doc) => doc._id === id) as SeedDocument & Record<string, unknown>
const firstText = (page: Record<string, unknown>) => {
  const sections = page.sections as { _type: string; body?: { children?: { text: string }[] }[] }[]
  return sections
    .find((section) => section._type === 'richTextSection')!
    .body![0]!.children!.map((child) => child.text)
    .join('')
}

describe('the seed in German', () => {
  it('translates every document with words, and the Studio finds nothing missing', async () => {
    const english = seed.filter((doc) => TRANSLATED_TYPES.includes(doc._type) && doc.language === 'en')
    expect(english.length).toBeGreaterThan(15)
    for (const doc of english) expect(byId(`${doc._id}-de`), doc._id).toMatchObject({ _type: doc._type, language: 'de' })
    expect(await missing(seed)).toEqual([])
  })

  it('marks every German document as needing a person’s review before launch, and no English one', () => {
    for (const doc of seed.filter((candidate) => candidate.language === 'de')) expect(doc.translationNeedsReview, doc._id).toBe(true)
    for (const doc of seed.filter((candidate) => candidate.language === 'en')) expect(doc.translationNeedsReview ?? false, doc._id).toBe(false)
  })

  it('opens each legal page, in both languages, with which version is binding', () => {
    for (const id of ['page-privacy', 'page-terms', 'page-cookies', 'page-gdpr']) {
      expect(firstText(byId(id)), id).toMatch(/English version is binding/)
      expect(firstText(byId(`${id}-de`)), `${id}-de`).toMatch(/Verbindlich ist die englische Fassung/)
    }
  })
})

describe('the Studio’s missing translations', () => {
  it('lists a page whose translation is gone from its set, and a fixed page with no document in the language', async () => {
    const without = seed.filter((doc) => doc._id !== 'page-careers-de' && doc._id !== 'aboutPage-de' && doc._id !== 'translations-page-careers')
    expect((await missing(without)).sort()).toEqual(['aboutPage', 'page-careers'])
  })

  it('lists everything for a language nobody has translated into yet', async () => {
    const all = await missing(seed, 'fr')
    expect(all).toEqual(expect.arrayContaining(['landingPage', 'page-privacy', 'post-why-ai-interviews', 'siteSettings']))
    expect(all).not.toContain('page-privacy-de')
  })
})

describe('the languages the site speaks', () => {
  it('are the Languages document’s, English first wherever it stands there', () => {
    expect(
      toSiteLanguages([
        { code: 'de', title: 'Deutsch' },
        { code: 'en', title: 'English' },
      ]),
    ).toEqual([
      { code: 'en', title: 'English' },
      { code: 'de', title: 'Deutsch' },
    ])
  })

  it('are English alone without the document, and never a code of the wrong shape', () => {
    expect(toSiteLanguages(null)).toEqual([{ code: 'en', title: 'English' }])
    expect(
      toSiteLanguages([
        { code: 'de', title: 'Deutsch' },
        { code: 'studio', title: 'x' },
        { code: 'DE', title: 'y' },
      ]),
    ).toEqual([
      { code: 'en', title: 'English' },
      { code: 'de', title: 'Deutsch' },
    ])
  })
})
