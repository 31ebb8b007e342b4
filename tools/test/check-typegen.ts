/** Fails when sanity/types.generated.ts does not match what typegen makes from the schema and queries. */
import { readFile } from 'node:fs/promises'
import { run } from '../local/run'

const file = 'sanity/types.generated.ts'
const before = await readFile(file, 'utf8')
await run('sanity', ['schema', 'extract', '--enforce-required-fields', '--force', '--path', 'sanity/extract.json'])
await run('sanity', ['typegen', 'generate'])
if ((await readFile(file, 'utf8')) !== before) {
  console.error(`${file} was out of date and has been regenerated: commit the new version.`)
  process.exit(1)
}
