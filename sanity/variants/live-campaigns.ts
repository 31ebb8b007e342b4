import type { LiveCampaignsQueryResult } from '../types.generated'
import { sectionedPagePath } from '../../lib/content/paths'
import { warnOnce } from '../../lib/warn-once'
import { campaignKeyProblem, campaignTagProblem, matchCampaign, type CampaignTags } from './campaign-rules'

/** A campaign version the proxy can show on a page: its tags and the section it replaces. */
export type LiveCampaign = CampaignTags & { sectionKey: string }

/** The published campaign versions by the path of each page they change (its language's prefix included). */
export type LiveCampaigns = ReadonlyMap<string, readonly LiveCampaign[]>

/**
 * The published campaign versions as the proxy needs them. A version is left out (the page shows
 * as published) when its key or tags break the Studio's rules (content written around it), and on
 * a page that has lost its section or in a language it has no section in; each is logged once.
 */
export function toLiveCampaigns(raw: LiveCampaignsQueryResult): LiveCampaigns {
  const byPath = new Map<string, LiveCampaign[]>()
  for (const item of raw) {
    const utmSource = item.utmSource === null || item.utmSource === '' ? null : item.utmSource
    // The Studio's own rules (./rules.ts), judged again over what was published.
    if (
      campaignKeyProblem(item.key) ||
      campaignTagProblem(item.utmCampaign ?? undefined, 'utm_campaign', true) ||
      campaignTagProblem(utmSource ?? undefined, 'utm_source', false) ||
      !item.sectionKey
    ) {
      warnOnce(`[campaigns] The campaign version ${JSON.stringify(item.key)} is not shown: its key or its tags break the Studio's rules`)
      continue
    }
    const utmCampaign = item.utmCampaign!
    for (const page of item.pages) {
      const path = sectionedPagePath(page)
      if (!path || !item.languages.includes(page.language)) continue
      if (!page.sectionKeys.includes(item.sectionKey)) {
        warnOnce(`[campaigns] The campaign version "${item.key}" is not shown on ${path}: the page has no section "${item.sectionKey}" any more`)
        continue
      }
      const version = { key: item.key, utmCampaign, utmSource, sectionKey: item.sectionKey }
      byPath.set(path, [...(byPath.get(path) ?? []), version])
    }
  }
  return byPath
}

/**
 * The campaign versions a request's address shows on a page: for each section some version
 * replaces, the one the tags name (one naming the source before one that does not), sorted by key
 * so that one combination is one page. None without tags that match.
 */
export function campaignVersionsFor(versions: readonly LiveCampaign[] | undefined, query: URLSearchParams): LiveCampaign[] {
  if (!versions?.length || !query.has('utm_campaign')) return []
  const bySection = new Map<string, LiveCampaign[]>()
  for (const version of versions) bySection.set(version.sectionKey, [...(bySection.get(version.sectionKey) ?? []), version])
  return [...bySection.values()]
    .map((candidates) => matchCampaign(candidates, query) as LiveCampaign | null)
    .filter((version): version is LiveCampaign => version !== null)
    .sort((a, b) => (a.key < b.key ? -1 : 1))
}

/**
 * Who was shown a campaign version, as the database can count it (public.waitlist_campaign_results,
 * supabase/schemas/14_campaigns.sql): the sign-ups whose visit began on one of the version's pages
 * with its tags, as components/waitlist/source.ts records them. A version that names no source
 * loses the sources whose own version replaces the same section (`otherSources`); a version that
 * is never shown (the same tags as an earlier one on that section, which the Studio refuses) has
 * no audience. Agrees with campaignVersionsFor: tests/unit/campaign-rules.test.ts and, in the
 * database, tests/integration/campaign-results-db.test.ts check it.
 */
export type CampaignAudience = { campaign: string; utmCampaign: string; utmSource: string | null; path: string; otherSources: string[] }

export function campaignAudiences(live: LiveCampaigns): CampaignAudience[] {
  const audiences: CampaignAudience[] = []
  for (const [path, versions] of live) {
    for (const version of versions) {
      const rivals = versions.filter((other) => other.sectionKey === version.sectionKey && other.utmCampaign === version.utmCampaign)
      // matchCampaign takes the first of two versions with the same tags.
      if (rivals.find((other) => other.utmSource === version.utmSource) !== version) continue
      const otherSources = version.utmSource === null ? [...new Set(rivals.flatMap((other) => (other.utmSource === null ? [] : [other.utmSource])))] : []
      audiences.push({ campaign: version.key, utmCampaign: version.utmCampaign, utmSource: version.utmSource, path, otherSources })
    }
  }
  return audiences
}
