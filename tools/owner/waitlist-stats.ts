/**
 * Site owner command: the waitlist in figures (total, confirmed, top referrers, sign-ups per day,
 * each experiment's sign-ups and confirmation rate once a sign-up recorded one, and each published
 * campaign version's), as the database counts them (public.waitlist_figures, funnel included,
 * waitlist_experiment_results and waitlist_campaign_results): nothing reads every entry but the
 * figures' one scan.
 *
 *   tsx tools/owner/waitlist-stats.ts
 *
 * Reads with the service-role key, on the owner's machine only, like waitlist:list and
 * waitlist:export: NEXT_PUBLIC_SUPABASE_URL + SUPABASE_SERVICE_ROLE_KEY from the environment (a
 * real project), else the local double on 127.0.0.1:54321.
 */
import { fetchExperimentCounts, fetchFigures, formatExperimentStats, formatWaitlistStats, withOwnerClient } from './owner'
import { configuredCampaigns, formatCampaignStats, readCampaignResults } from './campaigns'
import { experimentResults } from '../../components/variants/results'

if (process.argv.length > 2) {
  console.error('Usage: tsx tools/owner/waitlist-stats.ts')
  process.exit(2)
}

try {
  await withOwnerClient(process.env, async ({ config, client }) => {
    console.error(`Waitlist at ${config.url}${config.local ? ' (local)' : ''}`)
    const [figures, counts, campaigns] = await Promise.all([
      fetchFigures(client),
      fetchExperimentCounts(client),
      readCampaignResults(client, configuredCampaigns(config.local)),
    ])
    const sections = [formatExperimentStats(experimentResults(counts, null)), formatCampaignStats(campaigns)].filter(Boolean)
    process.stdout.write([formatWaitlistStats(figures.funnel, figures), ...sections].join('\n'))
  })
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(1)
}
