/**
 * Site owner command: exports the waitlist as CSV (RFC 4180, formula-safe).
 *
 *   tsx tools/owner/waitlist-export.ts [--bom] [--force] [output-file]
 *
 * Without a file argument the CSV goes to stdout with control and bidirectional characters
 * escaped (\x1b, \u{202e}), so a visitor's name cannot drive the owner's terminal; write to a
 * file for the exact values. The file is created readable by the owner only (0600), and an
 * existing file is refused unless --force (which then also makes it owner-only). --bom prefixes
 * a UTF-8 byte order mark for Excel. Reads NEXT_PUBLIC_SUPABASE_URL + SUPABASE_SERVICE_ROLE_KEY
 * from the environment (a real project), else the local double on 127.0.0.1:54321.
 */
import { parseArgs } from 'node:util'
import { waitlistToCsv } from './csv'
import { loadWaitlistForOwner, terminalSafe, writeOwnerOnly } from './owner'

const USAGE = 'Usage: tsx tools/owner/waitlist-export.ts [--bom] [--force] [output-file]'

let args: ReturnType<typeof parse>
function parse() {
  return parseArgs({
    allowPositionals: true,
    options: { bom: { type: 'boolean', default: false }, force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  })
}
try {
  args = parse()
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(2)
}
const [output, ...extra] = args.positionals
if (args.values.help || extra.length > 0) {
  console.error(USAGE)
  process.exit(2)
}

try {
  const { config, entries } = await loadWaitlistForOwner(process.env)
  const csv = waitlistToCsv(entries, { bom: args.values.bom })
  if (output) {
    await writeOwnerOnly(output, csv, args.values.force)
    console.error(`Wrote ${entries.length} entries from ${config.url} to ${output}`)
  } else {
    process.stdout.write(terminalSafe(csv, { keepLayout: true }))
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
