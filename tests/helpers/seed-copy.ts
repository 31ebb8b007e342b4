import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'

/** A copy of the seed dataset in a folder of its own, for a test that publishes into it: its folder, path and text. */
export async function seedCopy(prefix: string): Promise<{ dir: string; seedPath: string; seed: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), `${prefix}-`))
  const seedPath = path.join(dir, 'production.ndjson')
  const seed = await readFile('sanity/seed/production.ndjson', 'utf8')
  await writeFile(seedPath, seed)
  return { dir, seedPath, seed }
}
