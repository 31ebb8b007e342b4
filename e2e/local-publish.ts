import { execFile } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { parseNdjson } from '../sanity/seed/dataset'
import { E2E, e2eEnv } from '../tools/test/e2e-env'

const exec = promisify(execFile)

/**
 * Runs `npm run content:publish` the way a developer would, against the test build (or the server
 * at `site` reading the dataset in `env`'s CONTENT_SEED_PATH); returns its output.
 */
export async function publishLocally(documents: object[], site = `http://localhost:${E2E.sitePort}`, env = e2eEnv()): Promise<string> {
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'publish-')), 'change.json')
  await writeFile(file, JSON.stringify(documents))
  const { stdout } = await exec('tsx', ['tools/content/content-publish.ts', file, '--site', site], { env })
  return stdout
}

/** Runs `npm run content:publish -- --unpublish <id>…`: removes documents as the Studio's Unpublish does, with the webhook. */
export async function unpublishLocally(ids: string[]): Promise<string> {
  const args = ids.flatMap((id) => ['--unpublish', id])
  const { stdout } = await exec('tsx', ['tools/content/content-publish.ts', ...args, '--site', `http://localhost:${E2E.sitePort}`], { env: e2eEnv() })
  return stdout
}

/** A document as the test build's dataset holds it now (after earlier publishes). */
export async function currentDocument<T = Record<string, unknown>>(id: string): Promise<T> {
  const doc = parseNdjson(await readFile(E2E.seedPath, 'utf8')).find((d) => d._id === id)
  if (!doc) throw new Error(`the test dataset has no ${id}`)
  return doc as unknown as T
}
