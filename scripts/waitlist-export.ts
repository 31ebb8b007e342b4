/**
 * Site owner command: exports the waitlist as CSV (RFC 4180, formula-safe).
 *
 *   tsx scripts/waitlist-export.ts [--bom] [output-file]
 *
 * Writes to stdout without a file argument. --bom prefixes a UTF-8 byte order
 * mark for Excel. Reads NEXT_PUBLIC_SUPABASE_URL + SUPABASE_SERVICE_ROLE_KEY
 * from the environment (a real project), else the local double on
 * 127.0.0.1:54321.
 */
import { writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { waitlistToCsv } from '../lib/waitlist/csv'
import { loadWaitlistForOwner } from '../lib/waitlist/owner'

let args: ReturnType<typeof parse>
function parse() {
  return parseArgs({ allowPositionals: true, options: { bom: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } } })
}
try {
  args = parse()
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(2)
}
const [output, ...extra] = args.positionals
if (args.values.help || extra.length > 0) {
  console.error('Usage: tsx scripts/waitlist-export.ts [--bom] [output-file]')
  process.exit(2)
}

try {
  const { config, entries } = await loadWaitlistForOwner(process.env)
  const csv = waitlistToCsv(entries, { bom: args.values.bom })
  if (output) {
    // Personal data: readable by the owner only.
    await writeFile(output, csv, { mode: 0o600 })
    console.error(`Wrote ${entries.length} entries from ${config.url} to ${output}`)
  } else {
    process.stdout.write(csv)
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
