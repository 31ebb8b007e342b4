/**
 * Site owner command: prints the waitlist as a table.
 *
 *   tsx tools/owner/waitlist-list.ts [--force] [output-file]
 *
 * Names, e-mails and projects are printed with control and bidirectional characters escaped.
 * A file is created readable by the owner only; an existing one is refused unless --force.
 * Reads NEXT_PUBLIC_SUPABASE_URL + SUPABASE_SERVICE_ROLE_KEY from the
 * environment (a real project), else the local double on 127.0.0.1:54321.
 */
import { formatWaitlistTable, loadWaitlistForOwner, writeOwnerOnly } from './owner'

const argv = process.argv.slice(2)
const force = argv.includes('--force')
const [output, ...extra] = argv.filter((arg) => arg !== '--force')
if (extra.length > 0 || output === '--help' || output === '-h') {
  console.error('Usage: tsx tools/owner/waitlist-list.ts [--force] [output-file]')
  process.exit(2)
}

try {
  const { config, entries } = await loadWaitlistForOwner(process.env)
  const table = formatWaitlistTable(entries)
  if (output) {
    await writeOwnerOnly(output, table, force)
    console.error(`Wrote ${entries.length} entries from ${config.url} to ${output}`)
  } else {
    console.error(`Waitlist at ${config.url}${config.local ? ' (local)' : ''}`)
    process.stdout.write(table)
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
