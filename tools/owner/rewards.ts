/**
 * The rewards ladder from the founders' side (supabase/schemas/18_rewards.sql): how many reached
 * each rung, the perks held for their approval, the last perks granted, and a decision on a held
 * one. The console and the export go through here; the database decides each held perk once
 * (public.waitlist_decide_reward), as it does a held credit (./credits.ts).
 */
import type { OwnerClient } from './owner'
import { readCall } from './read'

/** One rung of public.waitlist_reward_counts: the ladder's in order, then rungs since removed (threshold null). */
export type RewardCount = {
  rung: string
  threshold: number | null
  kind: 'places' | 'perk' | null
  places: number | null
  approval: 'instant' | 'held' | null
  reached: number
  granted: number
  held: number
  refused: number
}

/** One perk of public.waitlist_held_rewards, oldest first. */
export type HeldReward = { entry_id: string; rung: string; earned_at: string; name: string; email: string; referral_credits: number }

/** One perk of public.waitlist_granted_perks, newest first; `approved` when a founder granted it. */
export type GrantedPerk = { entry_id: string; rung: string; earned_at: string; granted_at: string; approved: boolean; name: string; email: string }

/** As public.waitlist_decide_reward answers: `decision` named as a held credit's is (./credits.ts, CreditDecision). */
export type RewardDecision = { entry: string; rung: string; decision: 'granted' | 'refused'; changed: boolean }

export const readRewardCounts = (client: OwnerClient) => readCall<RewardCount[]>('the rewards ladder', client.rpc('waitlist_reward_counts'))

export const listHeldRewards = (client: OwnerClient, maxRows = 50) =>
  readCall<HeldReward[]>('the held perks', client.rpc('waitlist_held_rewards', { max_rows: maxRows }))

export const listGrantedPerks = (client: OwnerClient, maxRows = 20) =>
  readCall<GrantedPerk[]>('the perks granted', client.rpc('waitlist_granted_perks', { max_rows: maxRows }))

/** Whether the export has a rewards column: a ladder is published, or someone earned a rung of an earlier one. */
export const rewardsInUse = async (client: OwnerClient) => (await readRewardCounts(client)).length > 0

/** Grants or refuses the held perk `rung` of entry `entry`; null when they never earned it. A rung that was never held answers unchanged. */
export async function decideReward(client: OwnerClient, entry: string, rung: string, grant: boolean): Promise<RewardDecision | null> {
  const { data, error } = await client.rpc('waitlist_decide_reward', { entry, rung, grant_reward: grant })
  if (error) throw new Error(`Could not decide ${rung} of ${entry}: ${error.message}`)
  const answer = data as { entry: string; rung: string; status: 'granted' | 'held' | 'refused'; changed: boolean } | null
  if (answer === null) return null
  // Held after a decision cannot be; a rung granted at earning is "already granted".
  return { entry: answer.entry, rung: answer.rung, decision: answer.status === 'refused' ? 'refused' : 'granted', changed: answer.changed }
}
