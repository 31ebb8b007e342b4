/**
 * Lists in the Studio say which language each translated document is in (issue #56, item 3): every
 * translated type's preview selects the language and puts its code in front of the subtitle.
 */
import { describe, expect, it } from 'vitest'
import type { PreviewConfig, PreviewValue } from 'sanity'
import { schemaTypes, TRANSLATED_TYPES } from '@/sanity/schemaTypes'

const previewOf = (name: string) => (schemaTypes.find((type) => type.name === name) as { preview?: PreviewConfig }).preview!
const shown = (name: string, selection: Record<string, unknown>) => previewOf(name).prepare!(selection) as PreviewValue

describe('translated documents in Studio lists', () => {
  it('every translated type selects its language', () => {
    for (const name of TRANSLATED_TYPES) expect(previewOf(name).select, name).toMatchObject({ language: 'language' })
  })

  it('tells the two "Starter" tiers apart, keeping what the type itself shows', () => {
    expect(shown('pricingTier', { title: 'Starter', price: 29, availability: 'available', language: 'de' })).toEqual({ title: 'Starter', subtitle: 'DE · 29' })
    expect(shown('pricingTier', { title: 'Starter', price: 29, availability: 'available', language: 'en' })).toEqual({ title: 'Starter', subtitle: 'EN · 29' })
    expect(shown('post', { title: 'Hallo', slug: 'hallo', kind: 'article', language: 'de' }).subtitle).toMatch(/^DE · Article · /)
  })

  it('calls a document without a language the base language, as the site does', () => {
    expect(shown('pricingTier', { title: 'Team', price: 0 }).subtitle).toBe('EN · Free')
  })
})
