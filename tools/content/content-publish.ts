/**
 * `npm run content:publish -- <file> [--site http://localhost:3000]`: the Studio's publish,
 * offline (tools/content/publish.ts). Applies the documents in <file> (NDJSON, or JSON on one line
 * or many: one document or a list) to the local dataset the site reads, after checking them against
 * the Studio schema's rules, then sends the running site the same signed webhook Sanity would.
 * `npm run content:publish -- --unpublish <id>` (repeatable) removes documents instead, as the
 * Studio's Unpublish or Delete does, and sends the webhook for each.
 */
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import type { SeedDocument } from '../../sanity/seed/dataset'
import { parseDocumentsFile } from './documents-file'
import { localEnv } from '../local/local-env'
import { publishContent, PublishRefused } from './publish'

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { site: { type: 'string' }, unpublish: { type: 'string', multiple: true } },
})
const file = positionals[0]
const unpublish = values.unpublish ?? []
if (!file && unpublish.length === 0) {
  console.error('Usage: npm run content:publish -- <documents.ndjson|json> [--unpublish <id>]… [--site http://localhost:3000]')
  process.exit(2)
}

let changes: SeedDocument[] = []
try {
  changes = file ? parseDocumentsFile(await readFile(file, 'utf8'), file) : []
} catch (error) {
  console.error(`Not published: ${(error as Error).message}`)
  process.exit(1)
}
try {
  await publishContent({ changes, unpublish, env: localEnv(), ...(values.site ? { site: values.site } : {}), log: (line) => console.log(line) })
} catch (error) {
  if (!(error instanceof PublishRefused)) throw error
  console.error(error.message)
  process.exit(1)
}
