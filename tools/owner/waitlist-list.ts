/**
 * Site owner command: prints the waitlist as a table, oldest first, written a page at a time
 * (writeWaitlistTable: constant memory, whatever the list's length).
 *
 *   tsx tools/owner/waitlist-list.ts [--force] [output-file]
 *
 * Names, e-mails and projects are printed with control and bidirectional characters escaped.
 * A file is created readable by the owner only; an existing one is refused unless --force.
 * Reads NEXT_PUBLIC_SUPABASE_URL + SUPABASE_SERVICE_ROLE_KEY from the
 * environment (a real project), else the local double on 127.0.0.1:54321.
 */
import { ownerOnlyFile, streamSink, withOwnerClient, writeWaitlistTable } from './owner'

const argv = process.argv.slice(2)
const force = argv.includes('--force')
const [output, ...extra] = argv.filter((arg) => arg !== '--force')
if (extra.length > 0 || output === '--help' || output === '-h') {
  console.error('Usage: tsx tools/owner/waitlist-list.ts [--force] [output-file]')
  process.exit(2)
}

try {
  await withOwnerClient(process.env, async ({ config, client }) => {
    if (output) {
      const file = await ownerOnlyFile(output, force)
      const count = await writeWaitlistTable(client, file).finally(() => file.end())
      console.error(`Wrote ${count} entries from ${config.url} to ${output}`)
    } else {
      console.error(`Waitlist at ${config.url}${config.local ? ' (local)' : ''}`)
      await writeWaitlistTable(client, streamSink(process.stdout, { close: false }))
    }
  })
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
