/**
 * The Studio's publish, offline: what `npm run content:publish` does (tools/content/content-publish.ts
 * is its command line), callable in-process by the end-to-end specs (e2e/local-publish.ts). Applies
 * `changes` (each replaces the document with the same _id, like Sanity's createOrReplace) and
 * removes `unpublish` in the local dataset the site reads, after checking the whole dataset against
 * the Studio schema's rules, then sends the running site the same signed webhook Sanity would, one
 * per document. A page or post published at a new slug keeps the old one among its Old addresses
 * (`previousSlugs`), as the Studio's Publish does.
 */
import { writeFile } from 'node:fs/promises'
import { SEED_DATASET_PATH, updateSeedSources } from './seed-assemble'
import { readSeedDataset, type SeedDocument } from '../../sanity/seed/dataset'
import { schemaTypes } from '../../sanity/schemaTypes'
import { validateDocuments } from '../../sanity/validate-documents'
import { MOVABLE_TYPES, previousSlugsAfter, type SlugHistory } from '../../lib/content/paths'
import { sendRevalidationWebhook } from '../local/local-webhook'

/** A publish refused before anything changed, or a webhook the site refused: the message says which. */
export class PublishRefused extends Error {}

export type PublishOptions = {
  changes: SeedDocument[]
  unpublish?: string[]
  /** The environment the site runs with: its dataset (CONTENT_SEED_PATH), address and webhook secret. */
  env: NodeJS.ProcessEnv
  /** The running site to tell; NEXT_PUBLIC_SITE_URL's, else localhost:3000, when not given. */
  site?: string
  /** Each line the command prints, as it happens. */
  log?: (line: string) => void
}

/** Publishes; returns what the command prints, each line ended. */
export async function publishContent({ changes: given, unpublish = [], env, site: siteOption, log: print = () => {} }: PublishOptions): Promise<string> {
  let printed = ''
  const log = (line: string) => {
    printed += `${line}\n`
    print(line)
  }
  const datasetPath = env.CONTENT_SEED_PATH || SEED_DATASET_PATH
  const site = siteOption ?? env.NEXT_PUBLIC_SITE_URL ?? 'http://localhost:3000'
  const secret = env.SANITY_REVALIDATE_SECRET
  if (!secret) throw new Error('SANITY_REVALIDATE_SECRET is not set')
  const changes = [...given]

  const dataset = await readSeedDataset(datasetPath)
  const removed = dataset.filter((doc) => unpublish.includes(doc._id))
  const missing = unpublish.filter((id) => !removed.some((doc) => doc._id === id))
  if (missing.length > 0) throw new PublishRefused(`Not published: no document ${missing.join(', ')} in ${datasetPath}.`)
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
        log(`${doc._id} keeps its old addresses: ${previousSlugs.map((slug) => pathOf(slug, language)).join(', ') || 'none'}.`)
      }
    }
    if (index === -1) next.push(published)
    else next[index] = published
  }
  // The whole dataset is checked: removing a page that a menu links to is refused, as the Studio refuses it.
  const problems = await validateDocuments(schemaTypes as never, next)
  if (problems.length > 0) throw new PublishRefused(`Not published: the Studio would refuse this content.\n  ${problems.join('\n  ')}`)
  // Publishing to the seed itself (e.g. against `npm run preview`) edits its sources too, so they stay the one truth.
  if (datasetPath === SEED_DATASET_PATH) await updateSeedSources(changes, unpublish)
  else await writeFile(datasetPath, `${next.map((doc) => JSON.stringify(doc)).join('\n')}\n`)
  log(`Published ${changes.length} document(s) and unpublished ${removed.length} in ${datasetPath}.`)

  for (const doc of [...changes, ...removed]) {
    const started = performance.now()
    const answer = await sendRevalidationWebhook(site, secret, { _type: doc._type, _id: doc._id })
    if (answer.status !== 200) throw new PublishRefused(`Webhook for ${doc._id} refused (${answer.status}): ${answer.body.reason}`)
    log(`Revalidated ${answer.body.tags?.join(', ')} on ${site} in ${Math.round(performance.now() - started)} ms.`)
    const broadcast = answer.body.broadcast
    if (broadcast?.kind === 'sent') log(`E-mailed ${doc._id} to the ${broadcast.recipients} people who asked for updates (through the outbox).`)
    if (broadcast?.kind === 'already_sent') log(`${doc._id} was e-mailed when first published: nothing sent again.`)
  }
  return printed
}
