import { DEFAULT_LANGUAGE, LANGUAGE_CODE_PATTERN } from '../lib/i18n/languages'
import { plainTextProblem } from '../lib/content/plain-text'

/**
 * Words written once for every language inside one document (the questions at sign-up, the
 * reward ladder): `[{language: "en", text: "…"}, …]` in the Studio, `{en: "…", de: "…"}` in the
 * database and the pages. Free of Sanity and Next, so content:publish, the site and the tests
 * judge alike.
 */

/** A text in one language, as the Studio holds it. */
export type LocalizedDraft = { _key?: string; language?: string; text?: string }

/** The shape the database and the pages keep: texts by language. */
export type Labels = Record<string, string>

/** The first value that appears twice in `values`. */
export const repeated = <T>(values: readonly T[]) => values.find((value, index) => values.indexOf(value) !== index)

/**
 * A text in every language of the page (`languages`), each once, plain text of at most `max`
 * characters; English always.
 */
export function localizedProblem(texts: readonly LocalizedDraft[] | undefined, languages: readonly string[], max: number): string | null {
  const list = texts ?? []
  for (const entry of list) {
    if (!entry.language || !LANGUAGE_CODE_PATTERN.test(entry.language)) return 'Give each text its language code, e.g. "en" or "de"'
    if (!entry.text?.trim()) return `Write the ${entry.language} text`
    if ([...entry.text].length > max) return `The ${entry.language} text is over ${max} characters`
    const plain = plainTextProblem(entry.text, 'line')
    if (plain) return `${entry.language}: ${plain}`
  }
  const codes = list.map((entry) => entry.language)
  const duplicate = repeated(codes)
  if (duplicate) return `Two texts are for "${duplicate}": keep one`
  const missing = [DEFAULT_LANGUAGE, ...languages].find((code) => !codes.includes(code))
  return missing ? `Add the ${missing} text: the page is published in ${missing}` : null
}

export const labelsOf = (texts: readonly LocalizedDraft[] | undefined): Labels =>
  Object.fromEntries((texts ?? []).filter((entry) => entry.language && entry.text).map((entry) => [entry.language!, entry.text!.trim()]))

/** The text in `language`, else in English. */
export const inLanguage = (labels: Labels, language: string) => labels[language] ?? labels[DEFAULT_LANGUAGE] ?? ''
