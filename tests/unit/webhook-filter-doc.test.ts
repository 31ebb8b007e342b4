/**
 * The publish webhook's filter the founders' guide prints (docs/founders.md, "The publish webhook")
 * is the one `npm run sanity:webhook` sends, generated from the schema (sanity/webhook-filter.ts):
 * a type left out is one whose publish never reaches the site (no revalidation, no sync of the
 * running experiments or the questions at sign-up), which nothing else would notice before a
 * visitor did. tests/unit/publish-webhook.test.ts holds the generator to the schema.
 */
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { filterDifference } from '@/sanity/webhook-filter'

it('the documented webhook filter names every published document type the generator names, and only those', () => {
  const guide = readFileSync('docs/founders.md', 'utf8')
  const filter = /`(_type in \[[^\]]*\])`/.exec(guide)?.[1]
  expect(filter, 'the filter in docs/founders.md').toBeDefined()
  // As sets: the guide's order is its own, and `npm run sanity:webhook -- https://<site> --dry-run` prints the generated one.
  expect(filterDifference(filter), 'docs/founders.md, "The publish webhook"').toEqual({ missing: [], extra: [] })
})
