import { CONTROL_VARIANT, EXPERIMENT_KEY_PATTERN, VARIANT_KEY_PATTERN } from './assignments'

/**
 * The Studio's rules for an experiment document, as plain functions over its values so that
 * `content:publish` and the tests judge exactly what the Studio judges. Each returns a problem in
 * the editor's words, or null.
 */

export type VariantDraft = { _key?: string; key?: string; share?: number; sections?: { language?: string }[] }

export const EXPERIMENT_STATES = ['draft', 'running', 'stopped'] as const
export const EXPERIMENT_GOALS = ['waitlist_join', 'start_free_trial_click'] as const
export type ExperimentState = (typeof EXPERIMENT_STATES)[number]
export type ExperimentGoal = (typeof EXPERIMENT_GOALS)[number]

export function experimentKeyProblem(key: string | undefined): string | null {
  if (!key) return 'Give the experiment a key'
  return EXPERIMENT_KEY_PATTERN.test(key) ? null : 'Use 2 to 40 lowercase letters, digits and hyphens, starting with a letter (it is also the PostHog flag key)'
}

export function variantKeyProblem(key: string | undefined): string | null {
  if (!key) return 'Give the variant a key, e.g. "b"'
  if (key === CONTROL_VARIANT) return `"${CONTROL_VARIANT}" is the section as published on the page: name this variant otherwise`
  return VARIANT_KEY_PATTERN.test(key) ? null : 'Use up to 20 lowercase letters, digits and hyphens, starting with a letter'
}

/** Control gets what the variants leave: together they may take 100 %, never more. */
export function sharesProblem(variants: readonly VariantDraft[] | undefined): string | null {
  const total = (variants ?? []).reduce((sum, variant) => sum + (typeof variant.share === 'number' ? variant.share : 0), 0)
  return total > 100 ? `The variants take ${total} % of visitors: at most 100 % together (control gets the rest)` : null
}

export function duplicateVariantProblem(variants: readonly VariantDraft[] | undefined): string | null {
  const keys = (variants ?? []).map((variant) => variant.key).filter((key): key is string => Boolean(key))
  const duplicate = keys.find((key, index) => keys.indexOf(key) !== index)
  return duplicate ? `Two variants use the key "${duplicate}"` : null
}

/** One section per language in a variant: two would leave the page to guess. */
export function duplicateLanguageProblem(sections: readonly { language?: string }[] | undefined): string | null {
  const languages = (sections ?? []).map((section) => section.language).filter((code): code is string => Boolean(code))
  const duplicate = languages.find((code, index) => languages.indexOf(code) !== index)
  return duplicate ? `Two sections are for the language "${duplicate}": keep one` : null
}

/**
 * The varied section must be on the page in every language the page is published in (the
 * translations keep the sections' keys), and each language's variant section must be in a
 * language of the page.
 */
export function targetProblem({
  sectionKey,
  pages,
}: {
  sectionKey: string | undefined
  pages: readonly { language: string; sectionKeys: readonly string[] }[]
}): string | null {
  if (!sectionKey) return 'Choose the section of the page to vary'
  if (pages.length === 0) return 'Choose a published page'
  const without = pages
    .filter((page) => !page.sectionKeys.includes(sectionKey))
    .map((page) => page.language)
    .sort()
  return without.length > 0 ? `The page has no section with the key "${sectionKey}" (in ${without.join(', ')}): choose a section that is on the page` : null
}

export function variantLanguagesProblem(variant: VariantDraft, pageLanguages: readonly string[]): string | null {
  const foreign = (variant.sections ?? []).map((section) => section.language).filter((code): code is string => Boolean(code) && !pageLanguages.includes(code!))
  return foreign.length > 0 ? `The page is not published in ${foreign.join(', ')}` : null
}
