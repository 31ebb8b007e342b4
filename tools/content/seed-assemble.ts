import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parseNdjson, type SeedDocument } from '../../sanity/seed/dataset'

// Build-time only (scripts and tests): the site reads the assembled file, never these sources.

/** Where the seed's documents live, one readable JSON file each; `npm run content:seed` assembles them. */
export const SEED_DOCUMENTS_DIR = 'sanity/seed/documents'
export const SEED_DATASET_PATH = 'sanity/seed/production.ndjson'

/** The NDJSON `sanity dataset import` takes, from one file per document (sorted by file name, so the output is stable). */
export async function assembleSeed(dir = SEED_DOCUMENTS_DIR): Promise<string> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort()
  const documents = await Promise.all(
    files.map(async (file) => {
      const text = await readFile(path.join(dir, file), 'utf8')
      const [doc] = parseNdjson(JSON.stringify(JSON.parse(text)), path.join(dir, file))
      if (`${doc!._id}.json` !== file) throw new Error(`${path.join(dir, file)} holds the document ${doc!._id}: name the file after its _id`)
      return doc!
    }),
  )
  return `${documents.map((doc) => JSON.stringify(doc)).join('\n')}\n`
}

/** Writes documents into the seed's sources (one file each) and removes others, then reassembles the dataset. */
export async function updateSeedSources(changed: SeedDocument[], removedIds: string[], dir = SEED_DOCUMENTS_DIR): Promise<void> {
  for (const doc of changed) await writeFile(path.join(dir, `${doc._id}.json`), `${JSON.stringify(doc, null, 2)}\n`)
  for (const id of removedIds) await rm(path.join(dir, `${id}.json`), { force: true })
  await writeFile(SEED_DATASET_PATH, await assembleSeed(dir))
}
