/**
 * `npm run content:seed`: assembles sanity/seed/production.ndjson (what `content:import`, the
 * preview and the tests read) from the one-file-per-document sources in sanity/seed/documents/.
 * Edit those files, then run this; a test fails while the assembled file is stale.
 */
import { writeFile } from 'node:fs/promises'
import { assembleSeed, SEED_DATASET_PATH, SEED_DOCUMENTS_DIR } from './seed-assemble'

const ndjson = await assembleSeed()
await writeFile(SEED_DATASET_PATH, ndjson)
console.log(`Wrote ${SEED_DATASET_PATH}: ${ndjson.trim().split('\n').length} documents from ${SEED_DOCUMENTS_DIR}/.`)
