import { inLanguage, labelsOf, localizedProblem, repeated, type Labels, type LocalizedDraft } from '../localized-text'
import { REWARD_LIMITS, type LadderRung, type PerkApproval, type RewardKind } from './ladder'

/**
 * The reward ladder (issue #68): what the Studio accepts, what the site's server copies to the
 * database on publish (components/waitlist/rewards-sync.ts), and the rungs the pages and e-mails
 * show. The database repeats each rule in supabase/schemas/18_rewards.sql
 * (waitlist_replace_rewards); tests/unit/reward-ladder.test.ts and tests/integration/rewards-db.test.ts hold the two
 * to each other. Each problem is in the editor's words, or null. Free of Sanity and Next, so
 * content:publish, the site and the tests judge alike.
 */

export { REWARD_LIMITS, type LadderRung, type PerkApproval, type RewardKind } from './ladder'

/** Also what `waitlist:invite --where rung=<key>` and the export name it by. */
export const RUNG_KEY_PATTERN = /^[a-z][a-z0-9-]{0,39}$/

export const REWARD_KINDS: readonly { value: RewardKind; title: string }[] = [
  { value: 'places', title: 'Move up places in the line' },
  { value: 'perk', title: 'A perk the founders give (a month free, a badge, a call)' },
]
export const PERK_APPROVALS: readonly { value: PerkApproval; title: string }[] = [
  { value: 'instant', title: 'Granted as soon as it is earned' },
  { value: 'held', title: 'Held until a founder approves it (for a perk that costs money)' },
]

export type RungDraft = {
  _key?: string
  key?: string
  threshold?: number
  kind?: string
  places?: number
  approval?: string
  title?: LocalizedDraft[]
  description?: LocalizedDraft[]
}

/** A rung as published: its words in every language. */
export type PublishedRung = {
  key: string
  threshold: number
  kind: RewardKind
  places: number | null
  approval: PerkApproval | null
  titles: Labels
  descriptions: Labels
}

/** What the database keeps of a rung (public.waitlist_replace_rewards): no words, they stay in Sanity. */
export type StoredRung = Pick<PublishedRung, 'key' | 'threshold' | 'kind' | 'places' | 'approval'>

const isKind = (value: unknown): value is RewardKind => REWARD_KINDS.some((kind) => kind.value === value)
const isApproval = (value: unknown): value is PerkApproval => PERK_APPROVALS.some((approval) => approval.value === value)

export function rungKeyProblem(key: string | undefined): string | null {
  if (!key) return 'Give the rung a key, e.g. "skip-100"'
  return RUNG_KEY_PATTERN.test(key)
    ? null
    : 'Use up to 40 lowercase letters, digits and hyphens, starting with a letter (it names the reward in the export and the console: keep it once people have earned it)'
}

export function thresholdProblem(threshold: number | undefined): string | null {
  if (threshold === undefined || threshold === null) return 'Say how many confirmed friends earn it'
  return Number.isInteger(threshold) && threshold >= 1 && threshold <= REWARD_LIMITS.threshold
    ? null
    : `A whole number of confirmed friends from 1 to ${REWARD_LIMITS.threshold}`
}

/** A rung's kind and what it needs: places a number of places, a perk how it is granted. */
export function rungKindProblem(rung: RungDraft): string | null {
  if (!isKind(rung.kind)) return 'Choose what the rung gives'
  if (rung.kind === 'places') {
    const places = rung.places
    return places !== undefined && Number.isInteger(places) && places >= 1 && places <= REWARD_LIMITS.places
      ? null
      : `Say how many places it moves the person up: a whole number from 1 to ${REWARD_LIMITS.places}`
  }
  return isApproval(rung.approval) ? null : 'Say whether the perk is granted at once or held until a founder approves it'
}

/** The ladder as a whole: at most 8 rungs, each key once, thresholds rising, never two at one. */
export function ladderProblem(rungs: readonly RungDraft[] | undefined): string | null {
  const list = rungs ?? []
  if (list.length > REWARD_LIMITS.rungs) return `At most ${REWARD_LIMITS.rungs} rungs`
  const key = repeated(list.map((rung) => rung.key).filter(Boolean))
  if (key) return `Two rungs use the key "${key}"`
  const thresholds = list.map((rung) => rung.threshold).filter((threshold): threshold is number => typeof threshold === 'number')
  const same = repeated(thresholds)
  if (same !== undefined) return `Two rungs are earned at ${same} friends: give each its own number`
  const falling = thresholds.findIndex((threshold, index) => index > 0 && threshold < thresholds[index - 1]!)
  return falling > 0 ? `Order the rungs by friends, fewest first: ${thresholds[falling]} comes after ${thresholds[falling - 1]}` : null
}

/** Each problem of one rung, the first that applies; `languages` are the page's besides English. */
export function rungProblem(rung: RungDraft, languages: readonly string[] = []): string | null {
  return (
    rungKeyProblem(rung.key) ??
    thresholdProblem(rung.threshold) ??
    rungKindProblem(rung) ??
    localizedProblem(rung.title, languages, REWARD_LIMITS.title) ??
    localizedProblem(rung.description, languages, REWARD_LIMITS.description)
  )
}

/**
 * The rungs the database can take, from what the publish query answers. The Studio refuses
 * anything else; a document written around it (the API, an import) loses the rung that breaks a
 * rule, named in `skipped`, rather than the whole ladder: a rung not above the one kept before it
 * too, so what is stored always rises.
 */
export function publishableRungs(answer: readonly unknown[]): { rungs: PublishedRung[]; skipped: string[] } {
  const rungs: PublishedRung[] = []
  const skipped: string[] = []
  for (const item of answer) {
    const draft = (typeof item === 'object' && item !== null ? item : {}) as RungDraft
    const below = rungs.at(-1)
    const problem =
      (rungs.length === REWARD_LIMITS.rungs ? `over ${REWARD_LIMITS.rungs}` : null) ??
      rungProblem(draft) ??
      (rungs.some((rung) => rung.key === draft.key) ? 'a key used twice' : null) ??
      (below && draft.threshold! <= below.threshold ? `not above ${below.threshold} friends` : null)
    if (problem) {
      skipped.push(`rung ${JSON.stringify(draft.key ?? null)} (${problem})`)
      continue
    }
    rungs.push({
      key: draft.key!,
      threshold: draft.threshold!,
      kind: draft.kind as RewardKind,
      places: draft.kind === 'places' ? draft.places! : null,
      approval: draft.kind === 'perk' ? (draft.approval as PerkApproval) : null,
      titles: labelsOf(draft.title),
      descriptions: labelsOf(draft.description),
    })
  }
  return { rungs, skipped }
}

export const storedRung = ({ key, threshold, kind, places, approval }: PublishedRung): StoredRung => ({ key, threshold, kind, places, approval })

/** The published rungs in `language` (English where a word is missing). */
export function rungsIn(rungs: readonly PublishedRung[], language: string): LadderRung[] {
  return rungs.map(({ key, threshold, kind, places, approval, titles, descriptions }) => ({
    key,
    threshold,
    kind,
    places,
    approval,
    title: inLanguage(titles, language),
    description: inLanguage(descriptions, language),
  }))
}
