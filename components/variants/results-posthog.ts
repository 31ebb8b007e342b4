/**
 * Participants per experiment and variant from PostHog's query API (HogQL, EU cloud): the distinct
 * people who sent an exposure, `$feature_flag_called` with the experiment's key as
 * `$feature_flag` and their variant as `$feature_flag_response`. Owner side only (the founders'
 * console): it needs a personal API key, which must never reach the site or a browser.
 */
import { runHogQL, type PosthogQueryConfig } from '@/lib/posthog/query'
import { isExperimentKey, isVariantKey } from '@/sanity/variants/assignments'
import type { Participants } from './results'

/** The HogQL: keys are checked against EXPERIMENT_KEY_PATTERN first, so quoting them is safe. */
export function participantsQuery(experiments: readonly string[]): string {
  const keys = experiments.filter(isExperimentKey).map((key) => `'${key}'`)
  return `SELECT properties.$feature_flag AS experiment, properties.$feature_flag_response AS variant, count(DISTINCT person_id) AS participants
FROM events
WHERE event = '$feature_flag_called' AND properties.$feature_flag IN (${keys.join(', ')})
GROUP BY experiment, variant
LIMIT 10000`
}

/** PostHog's rows, keeping only well-formed keys and counts. */
export function participantsFrom(rows: readonly unknown[]): Participants {
  const participants = new Map<string, Map<string, number>>()
  for (const row of rows) {
    if (!Array.isArray(row)) continue
    const [experiment, variant, count] = row as unknown[]
    if (!isExperimentKey(experiment) || !isVariantKey(variant) || !Number.isSafeInteger(count) || (count as number) < 0) continue
    const variants = participants.get(experiment) ?? participants.set(experiment, new Map()).get(experiment)!
    variants.set(variant, (variants.get(variant) ?? 0) + (count as number))
  }
  return participants
}

/** Participants of `experiments`; throws with PostHog's status when the query fails. */
export async function fetchParticipants(config: PosthogQueryConfig, experiments: readonly string[], fetcher: typeof fetch = fetch): Promise<Participants> {
  if (!experiments.some(isExperimentKey)) return new Map()
  return participantsFrom(await runHogQL(config, participantsQuery(experiments), fetcher))
}
