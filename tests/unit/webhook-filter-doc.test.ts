/**
 * The publish webhook's filter the founders' guide tells them to paste into Sanity
 * (docs/founders.md, "The publish webhook") names every document type the Studio publishes: a type
 * left out is one whose publish never reaches the site (no revalidation, no sync of the running
 * experiments or the questions at sign-up), which nothing else would notice before a visitor did.
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { schemaTypes } from '@/sanity/schemaTypes'

it('the documented webhook filter names every published document type, and only those', () => {
  const guide = readFileSync('docs/founders.md', 'utf8')
  const filter = /`_type in (\[[^\]]*\])`/.exec(guide)?.[1]
  expect(filter, 'the filter in docs/founders.md').toBeDefined()
  const documented = JSON.parse(filter!) as string[]
  const documents = schemaTypes.filter((type) => type.type === 'document').map((type) => type.name)
  expect([...documented].sort()).toEqual([...documents, 'translation.metadata'].sort())
})
