import { CONTROL_VARIANT, type Assignments } from '@/sanity/variants/assignments'

/**
 * What the proxy needs of a running experiment: its key, its variants' shares (control takes the
 * rest) and the section it varies (a campaign version there takes it over).
 */
export type ExperimentSplit = { key: string; variants: readonly { key: string; share: number }[]; sectionKey?: string }

/** Buckets per experiment: shares are whole percents, so 10,000 buckets split them exactly. */
const BUCKETS = 10_000

/**
 * A participant's bucket in an experiment, from a hash of their (random) id and the experiment's
 * key: the same id falls into unrelated buckets in two experiments, and a test can replay any
 * number of participants exactly. FNV-1a, then murmur3's finaliser to spread its low bits.
 */
export function bucketOf(participantId: string, experimentKey: string): number {
  let hash = 0x811c9dc5
  for (const char of `${experimentKey}\u0000${participantId}`) {
    hash ^= char.codePointAt(0)!
    hash = Math.imul(hash, 0x01000193)
  }
  hash ^= hash >>> 16
  hash = Math.imul(hash, 0x85ebca6b)
  hash ^= hash >>> 13
  hash = Math.imul(hash, 0xc2b2ae35)
  hash ^= hash >>> 16
  return (hash >>> 0) % BUCKETS
}

/** The variant a participant sees, weighted by the variants' shares; control below them all. */
export function assignVariant(experiment: ExperimentSplit, participantId: string): string {
  const bucket = bucketOf(participantId, experiment.key)
  let upTo = 0
  for (const variant of experiment.variants) {
    upTo += Math.max(0, Math.round(variant.share)) * (BUCKETS / 100)
    if (bucket < upTo) return variant.key
  }
  return CONTROL_VARIANT
}

/** Every variant key a participant may hold for an experiment, control first. */
export const variantKeysOf = (experiment: ExperimentSplit): string[] => [CONTROL_VARIANT, ...experiment.variants.map((variant) => variant.key)]

/**
 * A participant's variants for the experiments of one page: the ones they hold (sticky, across
 * visits and pages) and, for an experiment they have not met, a new one. A held value that is not
 * a variant of the experiment (a forged or outdated cookie) shows control and is not replaced: the
 * visitor keeps what their cookie says, and the join form's record of it is dropped by the database.
 * The page's experiments come first in `assignments` and the others after them: the cookie holds
 * MAX_ASSIGNMENTS pairs, so what falls off a full cookie is an experiment met longest ago, never the
 * one just assigned (which would be assigned anew on every request, never sticky).
 */
export function participate(
  experiments: readonly ExperimentSplit[],
  held: Assignments,
  newParticipantId: () => string,
): { shown: Record<string, string>; assignments: Assignments; changed: boolean } {
  const onPage: Record<string, string> = {}
  const shown: Record<string, string> = {}
  let changed = false
  for (const experiment of experiments) {
    const current = held[experiment.key]
    if (current === undefined) changed = true
    const variant = (onPage[experiment.key] = current ?? assignVariant(experiment, newParticipantId()))
    if (variantKeysOf(experiment).includes(variant)) shown[experiment.key] = variant
  }
  return { shown, assignments: changed ? { ...onPage, ...held } : held, changed }
}
