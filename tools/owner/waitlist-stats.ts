/**
 * Site owner command: the waitlist in figures (total, confirmed, top referrers, sign-ups per day).
 *
 *   tsx tools/owner/waitlist-stats.ts
 *
 * Reads with the service-role key, on the owner's machine only, like waitlist:list and
 * waitlist:export: NEXT_PUBLIC_SUPABASE_URL + SUPABASE_SERVICE_ROLE_KEY from the environment (a
 * real project), else the local double on 127.0.0.1:54321.
 */
import { formatWaitlistStats, loadWaitlistForOwner } from './owner'

if (process.argv.length > 2) {
  console.error('Usage: tsx tools/owner/waitlist-stats.ts')
  process.exit(2)
}

try {
  const { config, entries } = await loadWaitlistForOwner(process.env)
  console.error(`Waitlist at ${config.url}${config.local ? ' (local)' : ''}`)
  process.stdout.write(formatWaitlistStats(entries))
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
