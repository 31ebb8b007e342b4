/**
 * Site owner command: prints the waitlist as a table.
 *
 *   tsx scripts/waitlist-list.ts [output-file]
 *
 * Reads NEXT_PUBLIC_SUPABASE_URL + SUPABASE_SERVICE_ROLE_KEY from the
 * environment (a real project), else the local double on 127.0.0.1:54321.
 */
import { writeFile } from 'node:fs/promises'
import { formatWaitlistTable, loadWaitlistForOwner } from '../lib/waitlist/owner'

const [output, ...extra] = process.argv.slice(2)
if (extra.length > 0 || output === '--help' || output === '-h') {
  console.error('Usage: tsx scripts/waitlist-list.ts [output-file]')
  process.exit(2)
}

try {
  const { config, entries } = await loadWaitlistForOwner(process.env)
  const table = formatWaitlistTable(entries)
  if (output) {
    // Personal data: readable by the owner only.
    await writeFile(output, table, { mode: 0o600 })
    console.error(`Wrote ${entries.length} entries from ${config.url} to ${output}`)
  } else {
    console.error(`Waitlist at ${config.url}${config.local ? ' (local)' : ''}`)
    process.stdout.write(table)
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
