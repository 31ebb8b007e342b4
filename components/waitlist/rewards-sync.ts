import 'server-only'
import { definePublishedSetSync, type SetSyncDeps, type SetSyncOutcome } from '@/lib/supabase/published-set'
import { readPublished } from '@/sanity/content/published'
import { publishedRewardsQuery } from '@/sanity/queries'
import { publishableRungs, storedRung, type StoredRung } from '@/sanity/rewards/rules'

/**
 * Keeps the database's copy of the reward ladder (private.waitlist_reward_rungs,
 * supabase/schemas/18_rewards.sql) equal to what is published in Sanity: the numbers and kinds the
 * database earns rungs by, never the words. Copied on every publish webhook (app/api/revalidate)
 * before the pages change, and on each scheduled outbox run (app/api/outbox/dispatch) for a webhook
 * that failed or never came. The database grants a lowered or new rung to everyone already past it.
 * A read or store that fails keeps the last ladder (lib/supabase/published-set.ts): an unreachable
 * Sanity must not look like "no rewards", which would stop earning.
 */

export type RewardSyncDeps = SetSyncDeps<StoredRung>
export type RewardSyncOutcome = SetSyncOutcome<'rungs'>

const rewardSync = definePublishedSetSync({
  tag: '[rewards]',
  what: 'the reward ladder',
  count: 'rungs',
  kept: 'The last reward ladder is kept',
  check: (answer) => {
    const { rungs, skipped } = publishableRungs(answer)
    return { items: rungs.map(storedRung), skipped }
  },
  readPublished: () => readPublished(publishedRewardsQuery),
  store: (client, rungs) => client.rpc('waitlist_replace_rewards', { rungs }),
  rpc: 'waitlist_replace_rewards',
})

export const syncPublishedRewards = rewardSync.syncPublished
/** The sync as the deployment configures it: Sanity (or the seed) and the service-role key. */
export const configuredRewardSync = rewardSync.configured
/** Runs the configured sync and logs what it did; never throws. */
export const syncRewards = rewardSync.sync
