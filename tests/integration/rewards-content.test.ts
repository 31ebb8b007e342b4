/**
 * The reward ladder as the Studio and the site hold it, over the seed with groq-js: the Studio's
 * schema (run as content:publish runs it) accepts the editors' guide's example and refuses what the
 * guide says it refuses, and the waitlist page and its e-mails read the rungs in each language.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { schemaTypes } from '@/sanity/schemaTypes'
import { validateDocuments } from '@/sanity/validate-documents'
import { evaluateQuery, parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'
import { waitlistPageQuery } from '@/sanity/queries'
import type { WaitlistPageQueryResult } from '@/sanity/types.generated'
import { toWaitlistPage } from '@/sanity/content/reshape'
import { editorsRewardsExample } from '@/tools/content/experiment-example'

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'))
const example = editorsRewardsExample()
const withDoc = (doc: unknown) => [...seed.filter((existing) => existing._id !== example._id), doc as SeedDocument]
const problemsWith = (doc: unknown) => validateDocuments(schemaTypes as never, withDoc(doc))
const rungs = () => structuredClone(example.rungs) as Record<string, unknown>[]
const withRungs = (list: unknown[]) => ({ ...example, rungs: list })

describe('the Studio’s rules for the reward ladder', () => {
  it('accepts the editors’ guide’s example, and no rung at all', async () => {
    expect(await problemsWith(example)).toEqual([])
    expect(await problemsWith(withRungs([]))).toEqual([])
  })

  it('refuses rungs out of order or at one number, a rung without its places or approval, a missing language, and words that break the plain-text rule', async () => {
    const [first, second, third] = rungs() as [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]
    const title = first.title as { language: string; text: string }[]
    const cases: [unknown[], RegExp][] = [
      [[second, first], /fewest first/],
      [[first, { ...second, threshold: 1 }], /Two rungs are earned at 1 friends/],
      [[first, { ...second, _key: 'again', key: 'skip-100' }], /Two rungs use the key "skip-100"/],
      [[{ ...first, places: undefined }], /how many places/],
      [[{ ...third, approval: undefined }], /granted at once or held/],
      [[{ ...first, title: title.filter((entry) => entry.language === 'en') }], /Add the de text: the page is published in de/],
      [[{ ...first, title: [{ ...title[0], text: 'Skip\u202e 100' }, title[1]] }], /text-direction control/],
      [Array.from({ length: 9 }, (_, i) => ({ ...first, _key: `r${i}`, key: `r${i}`, threshold: i + 1 })), /At most 8 rungs/],
    ]
    for (const [list, problem] of cases) expect(await problemsWith(withRungs(list)), String(problem)).toEqual([expect.stringMatching(problem)])
  })
})

describe('the waitlist page and its e-mails', () => {
  const page = async (docs: SeedDocument[], language: string) =>
    toWaitlistPage((await evaluateQuery(docs, waitlistPageQuery, { language })) as NonNullable<WaitlistPageQueryResult>, '', language)

  it('read the rungs in the page’s language, the e-mails too; the seed publishes none', async () => {
    const [en, de] = [await page(withDoc(example), 'en'), await page(withDoc(example), 'de')]
    expect(en.rewards.map((rung) => [rung.key, rung.threshold, rung.title])).toEqual([
      ['skip-100', 1, 'Skip 100 places'],
      ['founding-badge', 2, 'A founding member badge'],
      ['founder-call', 3, 'A call with the founders'],
      ['month-free', 10, 'A month free'],
    ])
    expect(de.rewards.map((rung) => rung.title)).toEqual([
      '100 Plätze nach vorn',
      'Ein Gründungsmitglieds-Abzeichen',
      'Ein Gespräch mit dem Gründerteam',
      'Ein Monat gratis',
    ])
    expect(de.email.rewards).toEqual(de.rewards)
    expect((await page(seed, 'en')).rewards).toEqual([])
  })

  it('never read a draft ladder', async () => {
    const draft = { ...example, _id: `drafts.${example._id}`, rungs: rungs().map((rung) => ({ ...rung, key: `draft-${String(rung.key)}` })) }
    expect((await page([...seed, draft as SeedDocument], 'en')).rewards).toEqual([])
  })
})
