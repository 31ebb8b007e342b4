/**
 * `npm run content:publish -- <file> [--site http://localhost:3000]`: the Studio's publish,
 * offline. Applies the documents in <file> (NDJSON, or JSON on one line or many: one document or a list; each
 * replaces the document with the same _id, like Sanity's createOrReplace) to the local
 * dataset the site reads, after checking them against the Studio schema's rules, then sends
 * the running site the same signed webhook Sanity would. A page or post published at a new slug
 * keeps the old one among its Old addresses (`previousSlugs`), as the Studio's Publish does.
 * `npm run content:publish -- --unpublish <id>` (repeatable) removes documents instead, as the
 * Studio's Unpublish or Delete does, and sends the webhook for each.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { SEED_DATASET_PATH, updateSeedSources } from './seed-assemble'
import { readSeedDataset, type SeedDocument } from '../../sanity/seed/dataset'
import { parseDocumentsFile } from './documents-file'
import { schemaTypes } from '../../sanity/schemaTypes'
import { validateDocuments } from '../../sanity/validate-documents'
import { MOVABLE_TYPES, previousSlugsAfter, type SlugHistory } from '../../lib/content/paths'
import { localEnv } from '../local/local-env'
import { sendRevalidationWebhook } from '../local/local-webhook'

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { site: { type: 'string' }, unpublish: { type: 'string', multiple: true } },
})
const env = localEnv()
const file = positionals[0]
const unpublish = values.unpublish ?? []
if (!file && unpublish.length === 0) {
  console.error('Usage: npm run content:publish -- <documents.ndjson|json> [--unpublish <id>]… [--site http://localhost:3000]')
  process.exit(2)
}
const datasetPath = env.CONTENT_SEED_PATH || SEED_DATASET_PATH
const site = values.site ?? env.NEXT_PUBLIC_SITE_URL ?? 'http://localhost:3000'
const secret = env.SANITY_REVALIDATE_SECRET
if (!secret) throw new Error('SANITY_REVALIDATE_SECRET is not set')

let changes: SeedDocument[] = []
try {
  changes = file ? parseDocumentsFile(await readFile(file, 'utf8'), file) : []
} catch (error) {
  console.error(`Not published: ${(error as Error).message}`)
  process.exit(1)
}

const dataset = await readSeedDataset(datasetPath)
const removed = dataset.filter((doc) => unpublish.includes(doc._id))
const missing = unpublish.filter((id) => !removed.some((doc) => doc._id === id))
if (missing.length > 0) {
  console.error(`Not published: no document ${missing.join(', ')} in ${datasetPath}.`)
  process.exit(1)
}
const next = dataset.filter((doc) => !unpublish.includes(doc._id))
for (const [position, doc] of changes.entries()) {
  const index = next.findIndex((existing) => existing._id === doc._id)
  const existing = index === -1 ? undefined : (next[index] as SeedDocument & SlugHistory)
  let published = doc
  if (doc._type in MOVABLE_TYPES && existing) {
    // A page or post published at a new address keeps the old one, as the Studio's Publish does. A
    // file that does not mention the old addresses keeps those published (a Studio draft always
    // carries them); one that lists them, even none, says which to keep.
    const incoming = 'previousSlugs' in doc || !existing.previousSlugs ? doc : { ...doc, previousSlugs: existing.previousSlugs }
    const previousSlugs = previousSlugsAfter(existing, incoming as SlugHistory)
    // Stamped as the Content Lake stamps every write: when two pages left one address, the later move has it.
    published = previousSlugs ? { ...incoming, previousSlugs, _updatedAt: new Date().toISOString() } : incoming
    changes[position] = published
    if (previousSlugs) {
      const { pathOf } = MOVABLE_TYPES[doc._type as keyof typeof MOVABLE_TYPES]
      const language = typeof doc.language === 'string' ? doc.language : undefined
      console.log(`${doc._id} keeps its old addresses: ${previousSlugs.map((slug) => pathOf(slug, language)).join(', ') || 'none'}.`)
    }
  }
  if (index === -1) next.push(published)
  else next[index] = published
}
// The whole dataset is checked: removing a page that a menu links to is refused, as the Studio refuses it.
const problems = await validateDocuments(schemaTypes as never, next)
if (problems.length > 0) {
  console.error(`Not published: the Studio would refuse this content.\n  ${problems.join('\n  ')}`)
  process.exit(1)
}
// Publishing to the seed itself (e.g. against `npm run preview`) edits its sources too, so they stay the one truth.
if (datasetPath === SEED_DATASET_PATH) await updateSeedSources(changes, unpublish)
else await writeFile(datasetPath, `${next.map((doc) => JSON.stringify(doc)).join('\n')}\n`)
console.log(`Published ${changes.length} document(s) and unpublished ${removed.length} in ${datasetPath}.`)

for (const doc of [...changes, ...removed]) {
  const started = performance.now()
  const answer = await sendRevalidationWebhook(site, secret, { _type: doc._type, _id: doc._id })
  if (answer.status !== 200) {
    console.error(`Webhook for ${doc._id} refused (${answer.status}): ${answer.body.reason}`)
    process.exit(1)
  }
  console.log(`Revalidated ${answer.body.tags?.join(', ')} on ${site} in ${Math.round(performance.now() - started)} ms.`)
  const broadcast = answer.body.broadcast
  if (broadcast?.kind === 'sent') console.log(`E-mailed ${doc._id} to the ${broadcast.recipients} people who asked for updates (through the outbox).`)
  if (broadcast?.kind === 'already_sent') console.log(`${doc._id} was e-mailed when first published: nothing sent again.`)
}
