import 'server-only'
import { configuredServiceClient } from '@/lib/supabase/configured'
import { copyPublishedSet, rpcFailure } from '@/lib/supabase/published-set'
import { CONTROL_VARIANT, isExperimentKey, isVariantKey } from '@/sanity/variants/assignments'
import { readRunningExperiments } from './running'

/**
 * Keeps the database's set of running experiments and their variant keys
 * (private.waitlist_experiment_variants, supabase/schemas/12_experiments.sql) equal to what is
 * published in Sanity: the set a sign-up's recorded variants are filtered against. Called on every
 * publish webhook (app/api/revalidate) and, as a safety net for a webhook that failed or never
 * came, on each scheduled outbox run (app/api/outbox/dispatch).
 * A read or store that fails keeps the last set (lib/supabase/published-set.ts): an unreachable
 * Sanity must not look like "no experiment runs", which would silently drop every variant.
 */

export type RunningExperiment = { key: string; variants: string[] }

export type ExperimentSyncDeps = {
  /** The published running experiments, as sanity/queries.ts runningExperimentsQuery answers. */
  read: () => Promise<unknown>
  /** Replaces the database's set; resolves to the number of pairs stored. */
  replace: (running: RunningExperiment[]) => Promise<number>
}

export type ExperimentSyncOutcome =
  { kind: 'synced'; experiments: number; pairs: number; skipped: string[] } | { kind: 'kept'; reason: string } | { kind: 'not-configured' }

/**
 * The experiments the database can take. An experiment with a malformed key is left out (no
 * sign-up could name it); so is a variant with a malformed or repeated key, or one named control
 * (control is every experiment's own). Each left-out item is named in `skipped`.
 */
export function recordableExperiments(answer: readonly unknown[]): { running: RunningExperiment[]; skipped: string[] } {
  const running = new Map<string, string[]>()
  const skipped: string[] = []
  for (const item of answer) {
    const { key, variants } = (typeof item === 'object' && item !== null ? item : {}) as { key?: unknown; variants?: unknown }
    if (!isExperimentKey(key) || running.has(key)) {
      skipped.push(`experiment ${JSON.stringify(key ?? null)}`)
      continue
    }
    const kept: string[] = []
    for (const entry of Array.isArray(variants) ? (variants as unknown[]) : []) {
      const variant = typeof entry === 'object' && entry !== null ? (entry as { key?: unknown }).key : undefined
      if (isVariantKey(variant) && variant !== CONTROL_VARIANT && !kept.includes(variant)) kept.push(variant)
      else skipped.push(`variant ${JSON.stringify(variant ?? null)} of ${key}`)
    }
    running.set(key, kept)
  }
  return { running: [...running].map(([key, variants]) => ({ key, variants })), skipped }
}

export async function syncRunningExperiments(deps: ExperimentSyncDeps): Promise<ExperimentSyncOutcome> {
  const copy = await copyPublishedSet({
    what: 'the running experiments',
    read: deps.read,
    check: (answer) => {
      const { running, skipped } = recordableExperiments(answer)
      return { items: running, skipped }
    },
    replace: deps.replace,
  })
  return copy.kind === 'synced' ? { kind: 'synced', experiments: copy.items.length, pairs: copy.stored, skipped: copy.skipped } : copy
}

/** The sync as the deployment configures it: Sanity (or the seed) and the service-role key. */
export function configuredExperimentSync(): ExperimentSyncDeps | null {
  const client = configuredServiceClient()
  if (!client) return null
  return {
    // Past every cache: the webhook arrives the moment the experiment is published.
    read: readRunningExperiments,
    replace: async (running) => {
      const { data, error, status } = await client.rpc('waitlist_replace_experiments', { running })
      if (error) throw rpcFailure('waitlist_replace_experiments', error, status)
      return data
    },
  }
}

/** Runs the configured sync and logs what it did; never throws. */
export async function syncExperiments(deps: ExperimentSyncDeps | null = configuredExperimentSync()): Promise<ExperimentSyncOutcome> {
  if (!deps) return { kind: 'not-configured' }
  const outcome = await syncRunningExperiments(deps)
  if (outcome.kind === 'kept') console.error(`[experiments] The last set of running experiments is kept: ${outcome.reason}`)
  else if (outcome.kind === 'synced' && outcome.skipped.length > 0)
    console.warn(`[experiments] Left out of the database's set (malformed keys): ${outcome.skipped.join(', ')}`)
  return outcome
}
