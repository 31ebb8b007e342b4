import { campaignTag } from '../../lib/variants/campaign-tag'

/**
 * Campaign versions of a section (issue #55): a visitor whose address carries a campaign's tags
 * sees that campaign's version of one section of one page, in the first HTML, and nothing about
 * them is stored. The Studio's rules and the matching, as plain functions over values, so the
 * Studio, `content:publish`, the proxy and the tests judge alike.
 */

/** A campaign's key: the address segment of its pages and its row in the console. */
export const CAMPAIGN_KEY_PATTERN = /^[a-z][a-z0-9-]{1,39}$/
export const isCampaignKey = (value: unknown): value is string => typeof value === 'string' && CAMPAIGN_KEY_PATTERN.test(value)

/** What the proxy matches a request against: a campaign's key and the tags it answers. */
export type CampaignTags = { key: string; utmCampaign: string; utmSource: string | null }

export function campaignKeyProblem(key: string | undefined): string | null {
  if (!key) return 'Give the campaign a key'
  return CAMPAIGN_KEY_PATTERN.test(key) ? null : 'Use 2 to 40 lowercase letters, digits and hyphens, starting with a letter'
}

/**
 * A tag value as a campaign names it: exactly what the site records from an address (trimmed, no
 * invisible characters, at most 100 characters, case as written), so that it can match.
 */
export function campaignTagProblem(value: string | undefined, name: 'utm_campaign' | 'utm_source', required: boolean): string | null {
  if (value === undefined || value === '') return required ? `Give the ${name} value the campaign's links carry` : null
  if (campaignTag(value) !== value)
    return `The site reads ${name} as "${campaignTag(value) ?? ''}": no spaces at either end, no invisible characters, at most 100 characters`
  return null
}

/** Two campaigns on one page may not answer the same tags: the page could not say whose version it shows. */
export function sameTagsProblem(campaign: Omit<CampaignTags, 'key'>, others: readonly CampaignTags[]): string | null {
  const twin = others.find((other) => other.utmCampaign === campaign.utmCampaign && other.utmSource === campaign.utmSource)
  if (!twin) return null
  return `The campaign "${twin.key}" already answers utm_campaign=${campaign.utmCampaign}${campaign.utmSource ? ` with utm_source=${campaign.utmSource}` : ''} on this page`
}

/**
 * The campaign a request's address names among a page's campaigns: its utm_campaign, read as the
 * site records it, equal to a campaign's; one that also names the request's utm_source before one
 * that names no source. Null when none answers (a source named by the campaign and not by the
 * request, or another, does not match). Only the first of a repeated parameter counts, as the
 * sign-up records it.
 */
export function matchCampaign(campaigns: readonly CampaignTags[], query: URLSearchParams): CampaignTags | null {
  const campaign = campaignTag(query.get('utm_campaign'))
  if (!campaign) return null
  const source = campaignTag(query.get('utm_source')) ?? null
  let anySource: CampaignTags | null = null
  for (const candidate of campaigns) {
    if (candidate.utmCampaign !== campaign) continue
    if (candidate.utmSource === null) anySource ??= candidate
    else if (candidate.utmSource === source) return candidate
  }
  return anySource
}
