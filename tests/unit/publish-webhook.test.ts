/**
 * The publish webhook's filter is generated from the schema (sanity/webhook-filter.ts), so a document
 * type added to sanity/schemaTypes/ is in it with no list to edit, and no other list can fall behind:
 * the filter names every document type `npm run typegen` read from the whole Studio config, plugins
 * included (sanity/types.generated.ts), and a filter without one of them is told apart, type by
 * type, as `npm run launch:check` reports it.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { schemaTypes } from '@/sanity/schemaTypes'
import { filterDifference, publishedDocumentTypes, publishWebhookFilter } from '@/sanity/webhook-filter'
import { publishWebhook } from '@/tools/content/publish-webhook'

/** Every document type the typegen saw: a type of its own with an `_id` (Sanity's assets aside, which no page publishes). */
function typegenDocumentTypes(): string[] {
  const generated = readFileSync('sanity/types.generated.ts', 'utf8')
  return [...generated.matchAll(/\n {2}_id: string\n {2}_type: '([^']+)'\n/g)].map((match) => match[1]!).filter((type) => !type.startsWith('sanity.'))
}

describe('the publish webhook filter', () => {
  it('names every document type of the schema, and a document type added to the schema with no other change', () => {
    const filter = publishWebhookFilter()
    for (const type of schemaTypes.filter((type) => type.type === 'document')) expect(filter).toContain(JSON.stringify(type.name))
    const added = [...schemaTypes, { name: 'waitlistRewards', type: 'document' }, { name: 'rewardRung', type: 'object' }]
    expect(publishWebhookFilter(publishedDocumentTypes(added))).toContain('"waitlistRewards"')
    expect(publishWebhookFilter(publishedDocumentTypes(added))).not.toContain('"rewardRung"')
  })

  it('names exactly the document types the typegen read from the whole Studio config, plugins included', () => {
    expect(typegenDocumentTypes().length).toBeGreaterThan(10)
    expect([...publishedDocumentTypes()].sort()).toEqual([...typegenDocumentTypes()].sort())
  })

  it('is what the command sends, and a filter without any one type is told apart by that type', () => {
    const hook = publishWebhook({ siteUrl: 'https://site.example', dataset: 'production', secret: 's' })
    expect(hook.rule.filter).toBe(publishWebhookFilter())
    expect(hook.url).toBe('https://site.example/api/revalidate')
    expect(filterDifference(hook.rule.filter)).toEqual({ missing: [], extra: [] })
    const types = publishedDocumentTypes()
    for (const left of types) expect(filterDifference(publishWebhookFilter(types.filter((type) => type !== left)))).toEqual({ missing: [left], extra: [] })
    expect(filterDifference(`${publishWebhookFilter().slice(0, -1)}, "gone"]`).extra).toEqual(['gone'])
    expect(filterDifference('_type == "post"').missing).toEqual(types)
  })
})
