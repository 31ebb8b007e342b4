import { VARIANT_SEGMENT_SEPARATOR } from '@/lib/i18n/languages'
import { isExperimentKey, isVariantKey, MAX_ASSIGNMENTS, type Assignments } from '@/sanity/variants/assignments'
import { isCampaignKey } from '@/sanity/variants/campaign-rules'

/**
 * A variant page's internal address: the [lang] segment carries the language, the campaign
 * versions and the experiments' variants the page draws, e.g. `en~hero-headline.b` (`/about` for a
 * participant is `/en~hero-headline.b/about`), or `en~_pm-linkedin-hero` for a visitor whose address
 * names that campaign (a campaign version's key after "_", which no experiment key starts with).
 * Only the proxy rewrites to it; asked for directly it is no page (the proxy answers 404), so a
 * variant is never an address of its own for search engines. Each combination is a static page of
 * its own, rendered on its first request and refreshed by the same cache tags as the page.
 */

const CAMPAIGN_MARK = '_'
/** More versions than sections a page could sensibly have: a longer segment is no page of ours. */
const MAX_CAMPAIGNS = 10

export type RouteVariants = { shown: Assignments; campaigns: readonly string[] }

export function variantSegment(language: string, shown: Assignments, campaigns: readonly string[] = []): string {
  const versions = [...new Set(campaigns.filter(isCampaignKey))].sort().map((key) => `${CAMPAIGN_MARK}${key}`)
  const pairs = Object.entries(shown)
    .filter(([key, variant]) => isExperimentKey(key) && isVariantKey(variant))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, variant]) => `${key}.${variant}`)
  return [language, ...versions, ...pairs].join(VARIANT_SEGMENT_SEPARATOR)
}

/** What a segment names, or null when it is not one `variantSegment` writes (then the page is a 404). */
export function parseVariantSegment(segment: string): ({ language: string } & RouteVariants) | null {
  const [language = '', ...parts] = decodeURIComponent(segment).split(VARIANT_SEGMENT_SEPARATOR)
  const campaigns: string[] = []
  while (parts[0]?.startsWith(CAMPAIGN_MARK)) {
    const key = parts.shift()!.slice(CAMPAIGN_MARK.length)
    // Sorted, each once: one address per combination, so no two cache entries hold the same page.
    if (!isCampaignKey(key) || (campaigns.length > 0 && key <= campaigns.at(-1)!) || campaigns.length === MAX_CAMPAIGNS) return null
    campaigns.push(key)
  }
  if (parts.length > MAX_ASSIGNMENTS) return null
  const shown: Record<string, string> = {}
  let previous = ''
  for (const pair of parts) {
    const [key, variant, extra] = pair.split('.')
    if (extra !== undefined || !isExperimentKey(key) || !isVariantKey(variant) || key <= previous) return null
    shown[key] = variant
    previous = key
  }
  return { language, shown, campaigns }
}
