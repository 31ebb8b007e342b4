/**
 * Site owner command: the waitlist in figures (total, confirmed, top referrers, sign-ups per day,
 * and each experiment's sign-ups and confirmation rate once a sign-up recorded one), as the
 * database counts them (public.waitlist_figures, funnel included, and waitlist_experiment_results):
 * nothing reads every entry.
 *
 *   tsx tools/owner/waitlist-stats.ts
 *
 * Reads with the service-role key, on the owner's machine only, like waitlist:list and
 * waitlist:export: NEXT_PUBLIC_SUPABASE_URL + SUPABASE_SERVICE_ROLE_KEY from the environment (a
 * real project), else the local double on 127.0.0.1:54321.
 */
import { fetchExperimentCounts, fetchFigures, formatExperimentStats, formatWaitlistStats, withOwnerClient } from './owner'
import { experimentResults } from '../../components/experiments/results'

if (process.argv.length > 2) {
  console.error('Usage: tsx tools/owner/waitlist-stats.ts')
  process.exit(2)
}

try {
  await withOwnerClient(process.env, async ({ config, client }) => {
    console.error(`Waitlist at ${config.url}${config.local ? ' (local)' : ''}`)
    const [figures, counts] = await Promise.all([fetchFigures(client), fetchExperimentCounts(client)])
    const experiments = formatExperimentStats(experimentResults(counts, null))
    process.stdout.write(formatWaitlistStats(figures.funnel, figures) + (experiments ? `\n${experiments}` : ''))
  })
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
