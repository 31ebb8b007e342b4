/**
 * PostHog's query API (HogQL, EU cloud), for the founders' console: experiment participants
 * (components/variants/results-posthog.ts) and real visitors' Web Vitals
 * (components/analytics/vitals-posthog.ts). It needs a personal API key, which must never reach
 * the site or a browser: only the owner's tools call this.
 */
export const POSTHOG_QUERY_HOST = 'https://eu.posthog.com'

export type PosthogQueryConfig = { personalApiKey: string; projectId: string }

/** The rows of one HogQL query; throws with PostHog's status when it fails, or after 15 s. */
export async function runHogQL(config: PosthogQueryConfig, query: string, fetcher: typeof fetch = fetch): Promise<unknown[]> {
  const response = await fetcher(`${POSTHOG_QUERY_HOST}/api/projects/${encodeURIComponent(config.projectId)}/query/`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${config.personalApiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: { kind: 'HogQLQuery', query } }),
    signal: AbortSignal.timeout(15_000),
  })
  if (!response.ok) throw new Error(`PostHog's query API answered HTTP ${response.status}`)
  const rows = ((await response.json()) as { results?: unknown } | null)?.results
  if (!Array.isArray(rows)) throw new Error('PostHog answered without results')
  return rows
}
