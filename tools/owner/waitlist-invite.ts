/**
 * Site owner command: let people in, in the order they earned.
 *
 *   npm run waitlist:invite -- --next 10            invite the next 10 confirmed people in line
 *   npm run waitlist:invite -- --next 10 --dry-run  only show who they would be
 *   npm run waitlist:invite -- --next 50 --where role=product-manager [--where team=11-50,51-200]
 *                                                    the next 50 of those who answered so (a
 *                                                    question named twice: either option; two
 *                                                    questions: both), in place order
 *   npm run waitlist:invite -- --next 20 --where rung=founding-call   the next 20 of those granted
 *                                                    that rung of the rewards ladder (with
 *                                                    answers too: both)
 *   npm run waitlist:invite -- --email ada@example.com [--dry-run]   one person, out of order
 *
 * The database does it (public.waitlist_invite_next / waitlist_invite_email): the same line as the
 * place people are shown, one run at a time, each invitation written with its e-mail in the outbox,
 * which the dispatcher sends once. Reads the service-role key from the environment like the other
 * owner commands (NEXT_PUBLIC_SUPABASE_URL + SUPABASE_SERVICE_ROLE_KEY), else the local double.
 */
import { parseArgs } from 'node:util'
import { formatInvitations, inviteFromLine, ownerClient, publishedQuestions, type Segment } from './owner'
import { readRewardCounts } from './rewards'
import { describeSegment, segmentFrom } from './segments'

const usage = 'Usage: npm run waitlist:invite -- (--next N [--where KEY=OPTION]… | --email ADDRESS) [--dry-run]'

let args
try {
  args = parseArgs({
    options: { next: { type: 'string' }, email: { type: 'string' }, where: { type: 'string', multiple: true }, 'dry-run': { type: 'boolean', default: false } },
    strict: true,
  })
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`)
  process.exit(2)
}
const { next, email, where = [], 'dry-run': dryRun } = args.values
const count = next === undefined ? undefined : Number(next)
if ((count === undefined) === (email === undefined) || (count !== undefined && !(Number.isInteger(count) && count >= 1 && count <= 10_000))) {
  console.error(`Give either --next with a whole number from 1 to 10000, or --email.\n${usage}`)
  process.exit(2)
}
if (email !== undefined && where.length > 0) {
  console.error(`--where chooses among the next in line: it goes with --next, not --email.\n${usage}`)
  process.exit(2)
}

try {
  const { config, client } = ownerClient(process.env)
  console.error(`Waitlist at ${config.url}${config.local ? ' (local)' : ''}`)
  let segment: Segment | null = null
  if (where.length > 0) {
    const questions = await publishedQuestions(client)
    const rungs = where.some((condition) => condition.trim().startsWith('rung=')) ? (await readRewardCounts(client)).map((count) => count.rung) : []
    const read = segmentFrom(where, questions, rungs)
    if ('problem' in read) {
      console.error(`Not invited: ${read.problem}.`)
      process.exit(2)
    }
    segment = read.segment
    console.error(`Among those who answered ${describeSegment(segment, questions)}`)
  }
  const result = await inviteFromLine(client, count !== undefined ? { next: count, segment } : { email: email! }, dryRun ?? false)
  process.stdout.write(formatInvitations(result, dryRun ?? false, segment !== null))
  if (result.refused) process.exit(1)
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
