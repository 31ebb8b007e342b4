import { readFile } from 'node:fs/promises'
import { parseNdjson, type SeedDocument } from '../sanity/seed/dataset'
import { publishContent } from '../tools/content/publish'
import { E2E, e2eEnv } from '../tools/test/e2e-env'

/**
 * Publishes as `npm run content:publish` does, in this process (tools/content/publish.ts, the
 * command's own code; tests/integration/docs-examples-publish.test.ts runs the command itself),
 * against the test build (or the server at `site` reading the dataset in `env`'s
 * CONTENT_SEED_PATH); returns what the command would print. A refusal throws, as the command fails.
 */
export async function publishLocally(documents: object[], site = `http://localhost:${E2E.sitePort}`, env = e2eEnv()): Promise<string> {
  // Through JSON, as the command reads its file: what a spec built from the seed's copy
  // (e2e/seed-copy.ts, which throws on a field the seed lacks) becomes plain documents.
  const changes = JSON.parse(JSON.stringify(documents)) as SeedDocument[]
  return publishContent({ changes, env, site })
}

/** As `npm run content:publish -- --unpublish <id>…`: removes documents as the Studio's Unpublish does, with the webhook. */
export async function unpublishLocally(ids: string[]): Promise<string> {
  return publishContent({ changes: [], unpublish: ids, env: e2eEnv(), site: `http://localhost:${E2E.sitePort}` })
}

/** A document as the test build's dataset holds it now (after earlier publishes). */
export async function currentDocument<T = Record<string, unknown>>(id: string): Promise<T> {
  const doc = parseNdjson(await readFile(E2E.seedPath, 'utf8')).find((d) => d._id === id)
  if (!doc) throw new Error(`the test dataset has no ${id}`)
  return doc as unknown as T
}
