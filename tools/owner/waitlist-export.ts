/**
 * Site owner command: exports the waitlist as CSV (RFC 4180, formula-safe), written a page at a
 * time as the pages arrive (writeWaitlistCsv: constant memory, whatever the list's length).
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
import { ownerOnlyFile, streamSink, withOwnerClient, writeWaitlistCsv } from './owner'

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
  await withOwnerClient(process.env, async ({ config, client }) => {
    if (output) {
      const file = await ownerOnlyFile(output, args.values.force)
      const count = await writeWaitlistCsv(client, file, { bom: args.values.bom }).finally(() => file.end())
      console.error(`Wrote ${count} entries from ${config.url} to ${output}`)
    } else {
      await writeWaitlistCsv(client, streamSink(process.stdout, { close: false }), { bom: args.values.bom, escape: true })
    }
  })
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
