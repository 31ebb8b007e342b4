/**
 * `npm run content:publish -- <file> [--site http://localhost:3000]`: the Studio's publish,
 * offline. Applies the documents in <file> (NDJSON, or JSON: one document or a list; each
 * replaces the document with the same _id, like Sanity's createOrReplace) to the local
 * dataset the site reads, after checking them against the Studio schema's rules, then sends
 * the running site the same signed webhook Sanity would.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { parseNdjson, readSeedDataset, type SeedDocument } from '../lib/content/seed-dataset'
import { schemaTypes } from '../sanity/schemaTypes'
import { validateDocuments } from '../sanity/validate-documents'
import { localEnv } from './lib/local-env'
import { sendRevalidationWebhook } from './lib/local-webhook'

const { positionals, values } = parseArgs({ allowPositionals: true, options: { site: { type: 'string' } } })
const env = localEnv()
const file = positionals[0]
if (!file) {
  console.error('Usage: npm run content:publish -- <documents.ndjson|json> [--site http://localhost:3000]')
  process.exit(2)
}
const datasetPath = env.CONTENT_SEED_PATH || 'sanity/seed/production.ndjson'
const site = values.site ?? env.NEXT_PUBLIC_SITE_URL ?? 'http://localhost:3000'
const secret = env.SANITY_REVALIDATE_SECRET
if (!secret) throw new Error('SANITY_REVALIDATE_SECRET is not set')

const text = (await readFile(file, 'utf8')).trim()
const changes: SeedDocument[] = text.startsWith('[') || (text.startsWith('{') && !text.includes('\n'))
  ? [JSON.parse(text)].flat()
  : parseNdjson(text, file)

const dataset = await readSeedDataset(datasetPath)
const next = [...dataset]
for (const doc of changes) {
  const index = next.findIndex((existing) => existing._id === doc._id)
  if (index === -1) next.push(doc)
  else next[index] = doc
}
const problems = await validateDocuments(schemaTypes as never, next)
if (problems.length > 0) {
  console.error(`Not published: the Studio would refuse this content.\n  ${problems.join('\n  ')}`)
  process.exit(1)
}
await writeFile(datasetPath, `${next.map((doc) => JSON.stringify(doc)).join('\n')}\n`)
console.log(`Published ${changes.length} document(s) to ${datasetPath}.`)

for (const doc of changes) {
  const started = performance.now()
  const answer = await sendRevalidationWebhook(site, secret, { _type: doc._type, _id: doc._id })
  if (answer.status !== 200) {
    console.error(`Webhook for ${doc._id} refused (${answer.status}): ${answer.body.reason}`)
    process.exit(1)
  }
  console.log(`Revalidated ${answer.body.tags?.join(', ')} on ${site} in ${Math.round(performance.now() - started)} ms.`)
}
