/**
 * Site owner command: the e-mail rates of the last 7 days and whether sending is paused, and the
 * resume after an automatic pause (tools/owner/mail.ts).
 *
 *   npm run waitlist:mail            the figures
 *   npm run waitlist:mail -- resume  sending resumes (after you found and fixed the cause)
 *
 * Like waitlist:stats: NEXT_PUBLIC_SUPABASE_URL + SUPABASE_SERVICE_ROLE_KEY from the environment
 * (a real project), else the local double on 127.0.0.1:54321.
 */
import { formatMailHealth, readMailHealth, resumeMail } from './mail'
import { withOwnerClient } from './owner'

const args = process.argv.slice(2)
if (args.length > 1 || (args.length === 1 && args[0] !== 'resume')) {
  console.error('Usage: tsx tools/owner/waitlist-mail.ts [resume]')
  process.exit(2)
}

try {
  await withOwnerClient(process.env, async ({ config, client }) => {
    console.error(`Waitlist at ${config.url}${config.local ? ' (local)' : ''}`)
    if (args[0] === 'resume') console.log((await resumeMail(client)) ? 'Sending resumed.' : 'Sending was not paused: nothing changed.')
    process.stdout.write(formatMailHealth(await readMailHealth(client)))
  })
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
