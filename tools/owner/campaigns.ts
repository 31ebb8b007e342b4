/**
 * The campaign versions' results for the founders (issue #55), as the console and `waitlist:stats`
 * show them: the versions published now, whom each was shown to (sanity/variants/live-campaigns.ts
 * campaignAudiences), and the database's count of those sign-ups
 * (public.waitlist_campaign_results, supabase/schemas/14_campaigns.sql) with their rates.
 */
import { publicEnv, serverEnv } from '../../lib/env'
import { campaignResults, formatRate, type CampaignResult } from '../../components/variants/results'
import { campaignAudiences, toLiveCampaigns, type CampaignAudience } from '../../sanity/variants/live-campaigns'
import { readPublished } from '../../sanity/content/published'
import { liveCampaignsQuery } from '../../sanity/queries'
import type { LiveCampaignsQueryResult } from '../../sanity/types.generated'
import { alignedTable, fetchCampaignCounts, printable, type OwnerClient } from './owner'

/** The published campaign versions, as sanity/queries.ts liveCampaignsQuery answers, and where they were read. */
export type CampaignsSource = { read: () => Promise<LiveCampaignsQueryResult>; from: string }

/**
 * The versions' results with whom each was shown to (read from the content in `from`), or why there
 * are none: no content to read the versions from beside this waitlist, or a failed read.
 */
export type CampaignsView =
  | { kind: 'read'; from: string; audiences: readonly CampaignAudience[]; results: readonly CampaignResult[] }
  | { kind: 'not-configured' }
  | { kind: 'failed'; reason: string }

/**
 * The content the site shows, past every cache: the Sanity project when one is configured, else the
 * seed the local site shows, but only beside the local waitlist. A hosted waitlist counted against
 * the seed's campaigns would be another site's figures, so it gets none and says why.
 */
export function configuredCampaigns(local: boolean): CampaignsSource | null {
  const read = () => readPublished<LiveCampaignsQueryResult>(liveCampaignsQuery)
  if (publicEnv.sanityProjectId) return { read, from: `Sanity project ${publicEnv.sanityProjectId}, dataset ${publicEnv.sanityDataset}` }
  return local ? { read, from: `the local seed, ${serverEnv().contentSeedPath}` } : null
}

export const CAMPAIGNS_NOT_CONFIGURED =
  'No Sanity project is configured here (NEXT_PUBLIC_SANITY_PROJECT_ID and NEXT_PUBLIC_SANITY_DATASET, as the site has them), and this waitlist is not the local one: the published campaign versions cannot be read, so they are not counted.'

/** Failing to read costs the caller nothing but the campaign versions' figures. */
export async function readCampaignResults(client: OwnerClient, source: CampaignsSource | null): Promise<CampaignsView> {
  if (!source) return { kind: 'not-configured' }
  try {
    const audiences = campaignAudiences(toLiveCampaigns(await source.read()))
    // With no version published there is nothing to compare the rest with: the list is not counted.
    const counts = audiences.length ? await fetchCampaignCounts(client, audiences) : []
    return { kind: 'read', from: source.from, audiences, results: campaignResults(counts) }
  } catch (error) {
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) }
  }
}

/** The row of the sign-ups no version was shown to. */
export const NO_CAMPAIGN_VERSION = 'No campaign version'

/** "utm_campaign=pm-linkedin from any utm_source, landing on /, /de": whom a version (or, for null, no version) was shown to. */
export function campaignShownTo(audiences: readonly CampaignAudience[], campaign: string | null): string {
  const own = audiences.filter((audience) => audience.campaign === campaign)
  const [first] = own
  if (campaign === null || !first) return 'everyone else'
  const others = [...new Set(own.flatMap((audience) => audience.otherSources))].sort()
  const tags =
    first.utmSource !== null
      ? `utm_campaign=${first.utmCampaign} and utm_source=${first.utmSource}`
      : `utm_campaign=${first.utmCampaign} from any utm_source${others.length ? ` but ${others.join(', ')} (another version's)` : ''}`
  return `${tags}, landing on ${[...new Set(own.map((audience) => audience.path))].sort().join(', ')}`
}

/** `waitlist:stats`'s lines: the table, or why there is none; '' when no version is published. */
export function formatCampaignStats(view: CampaignsView): string {
  if (view.kind === 'not-configured') return `Campaign versions: not counted. ${CAMPAIGNS_NOT_CONFIGURED}\n`
  if (view.kind === 'failed') return `Campaign versions: could not be counted (${printable(view.reason)})\n`
  if (!view.results.some((result) => result.campaign !== null)) return ''
  const rows = view.results.map((result) => [
    result.campaign ?? NO_CAMPAIGN_VERSION,
    printable(campaignShownTo(view.audiences, result.campaign)),
    String(result.signups),
    String(result.confirmations),
    formatRate(result.confirmation),
  ])
  return `Campaign versions (as published in ${printable(view.from)})\n${alignedTable(['Campaign version', 'Shown to', 'Signed up', 'Confirmed', 'Confirmation rate (95 % interval)'], rows)}`
}
