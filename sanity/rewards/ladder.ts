/**
 * What the person's own page and the e-mails need of the reward ladder, free of every import: the
 * page's browser code reads it (components/waitlist/my-place.tsx), and the Studio's rules around
 * it (./rules.ts) stay out of the page's JavaScript.
 */

/** The database holds the same limits (supabase/schemas/18_rewards.sql, waitlist_reward_rungs). */
export const REWARD_LIMITS = { rungs: 8, threshold: 10_000, places: 1_000_000, title: 60, description: 200 } as const

export type RewardKind = 'places' | 'perk'
export type PerkApproval = 'instant' | 'held'

/** A rung in one language, as the page and the e-mails show it. */
export type LadderRung = {
  key: string
  threshold: number
  kind: RewardKind
  places: number | null
  /** A perk's: held ones reach the person once a founder approves them. */
  approval: PerkApproval | null
  title: string
  description: string
}

/** What the database says a person earned (waitlist_me's `rewards`): a held perk waits for a founder. */
export type EarnedReward = { rung: string; status: 'granted' | 'held' }

export type LadderProgress = {
  earned: (LadderRung & { status: EarnedReward['status'] })[]
  /** The next rung to reach and how many more confirmed friends it takes; null at the top. */
  next: { rung: LadderRung; remaining: number } | null
}

/**
 * Where a person stands on the ladder: the rungs the database recorded as theirs, and the first rung
 * above their confirmed friends that is not. A rung at or below their count that the database has
 * not recorded yet (a publish a moment ago) is neither: the database grants it on its copy.
 */
export function ladderProgress(rungs: readonly LadderRung[], credits: number, earned: readonly EarnedReward[]): LadderProgress {
  const status = new Map(earned.map((reward) => [reward.rung, reward.status]))
  const next = rungs.find((rung) => !status.has(rung.key) && rung.threshold > credits)
  return {
    earned: rungs.flatMap((rung) => (status.has(rung.key) ? [{ ...rung, status: status.get(rung.key)! }] : [])),
    next: next ? { rung: next, remaining: next.threshold - credits } : null,
  }
}

/** "1 more friend: …" or "{n} more friends: …": the plural form of `n` in `language` picks the words. */
export function countedWords(words: { one: string; other: string }, n: number, language: string): string {
  return new Intl.PluralRules(language).select(n) === 'one' ? words.one : words.other
}
