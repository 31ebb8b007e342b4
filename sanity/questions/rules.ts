import { inLanguage, labelsOf, localizedProblem, repeated, type Labels, type LocalizedDraft } from '../localized-text'

/**
 * The waitlist page's questions at sign-up (issue #52): what the Studio accepts, what the site's
 * server copies to the database on publish (components/waitlist/questions-sync.ts), and the limits
 * the form and the database share. The database repeats each rule in
 * supabase/schemas/15_questions.sql (waitlist_replace_questions, the waitlist_answers trigger);
 * tests/integration/questions-db.test.ts holds the two to each other. Each problem is in the
 * editor's words, or null. Free of Sanity and Next, so content:publish, the site and the tests
 * judge alike.
 */

import { QUESTION_LIMITS, type FormQuestion, type QuestionKind } from './limits'

export { QUESTION_LIMITS, type FormQuestion, type QuestionKind } from './limits'
export { localizedProblem, type Labels, type LocalizedDraft } from '../localized-text'

/** Also the analytics property (`answer_<key>`) and the `--where key=option` of waitlist:invite. */
export const QUESTION_KEY_PATTERN = /^[a-z][a-z0-9-]{0,39}$/
export const OPTION_KEY_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/

export const QUESTION_KINDS: readonly { value: QuestionKind; title: string }[] = [
  { value: 'one', title: 'One choice' },
  { value: 'many', title: 'Several choices' },
  { value: 'text', title: `A short answer (at most ${QUESTION_LIMITS.answer} characters)` },
]
export const isQuestionKind = (value: unknown): value is QuestionKind => QUESTION_KINDS.some((kind) => kind.value === value)

export type OptionDraft = { _key?: string; key?: string; label?: LocalizedDraft[] }
export type QuestionDraft = { _key?: string; key?: string; kind?: string; required?: boolean; label?: LocalizedDraft[]; options?: OptionDraft[] }

/**
 * A sign-up's answers as the database stores them (the waitlist_answers trigger): per question key,
 * the question and the chosen options' keys and labels, or the short answer, as the person saw them.
 */
export type StoredAnswers = Record<
  string,
  { question: string; kind: 'one' | 'many'; options: string[]; labels: string[] } | { question: string; kind: 'text'; text: string }
>

export type PublishedQuestion = { key: string; kind: QuestionKind; required: boolean; labels: Labels; options: { key: string; labels: Labels }[] }

export function questionKeyProblem(key: string | undefined): string | null {
  if (!key) return 'Give the question a key, e.g. "role"'
  return QUESTION_KEY_PATTERN.test(key)
    ? null
    : 'Use up to 40 lowercase letters, digits and hyphens, starting with a letter (it names the answers in the export, the console and analytics: keep it once people have answered)'
}

export function optionKeyProblem(key: string | undefined): string | null {
  if (!key) return 'Give the option a key, e.g. "product-manager"'
  return OPTION_KEY_PATTERN.test(key) ? null : 'Use up to 40 lowercase letters, digits and hyphens, starting with a letter or digit'
}

export function questionListProblem(questions: readonly QuestionDraft[] | undefined): string | null {
  const list = questions ?? []
  if (list.length > QUESTION_LIMITS.questions) return `At most ${QUESTION_LIMITS.questions} questions: every one more is a reason not to sign up`
  const duplicate = repeated(list.map((question) => question.key).filter(Boolean))
  return duplicate ? `Two questions use the key "${duplicate}"` : null
}

/** A question's kind and options: a choice has 2 to 12 options with distinct keys and labels, a short answer none. */
export function optionsProblem(question: QuestionDraft): string | null {
  const options = question.options ?? []
  if (question.kind === 'text') return options.length > 0 ? 'A short answer has no options: remove them, or make it a choice' : null
  if (options.length < QUESTION_LIMITS.minOptions) return `A choice needs at least ${QUESTION_LIMITS.minOptions} options`
  if (options.length > QUESTION_LIMITS.options) return `At most ${QUESTION_LIMITS.options} options`
  const key = repeated(options.map((option) => option.key).filter(Boolean))
  if (key) return `Two options use the key "${key}"`
  const languages = new Set(options.flatMap((option) => (option.label ?? []).map((entry) => entry.language)))
  for (const language of languages) {
    const label = repeated(
      options
        .map((option) =>
          option.label
            ?.find((entry) => entry.language === language)
            ?.text?.trim()
            .toLowerCase(),
        )
        .filter(Boolean),
    )
    if (label) return `Two options read "${label}" in ${language}`
  }
  return null
}

/**
 * The questions the database can take, from what the publish query answers. The Studio refuses
 * anything else; a document written around it (the API, an import) loses the question that breaks
 * a rule, named in `skipped`, rather than refusing every sign-up.
 */
export function publishableQuestions(answer: readonly unknown[]): { questions: PublishedQuestion[]; skipped: string[] } {
  const questions: PublishedQuestion[] = []
  const skipped: string[] = []
  for (const item of answer.slice(0, QUESTION_LIMITS.questions)) {
    const draft = (typeof item === 'object' && item !== null ? item : {}) as QuestionDraft
    const problem =
      questionKeyProblem(draft.key) ??
      (isQuestionKind(draft.kind) ? null : 'no kind') ??
      (questions.some((question) => question.key === draft.key) ? 'a key used twice' : null) ??
      localizedProblem(draft.label, [], QUESTION_LIMITS.label) ??
      optionsProblem(draft) ??
      (draft.options ?? []).map((option) => optionKeyProblem(option.key) ?? localizedProblem(option.label, [], QUESTION_LIMITS.optionLabel)).find(Boolean) ??
      null
    if (problem) {
      skipped.push(`question ${JSON.stringify(draft.key ?? null)} (${problem})`)
      continue
    }
    questions.push({
      key: draft.key!,
      kind: draft.kind as QuestionKind,
      required: draft.required === true,
      labels: labelsOf(draft.label),
      options: (draft.options ?? []).map((option) => ({ key: option.key!, labels: labelsOf(option.label) })),
    })
  }
  for (const item of answer.slice(QUESTION_LIMITS.questions))
    skipped.push(`question ${JSON.stringify((item as QuestionDraft | null)?.key ?? null)} (over ${QUESTION_LIMITS.questions})`)
  return { questions, skipped }
}

/** The published questions in `language` (English where a word is missing), as the database reads them too. */
export function questionsIn(questions: readonly PublishedQuestion[], language: string): FormQuestion[] {
  return questions.map(({ key, kind, required, labels, options }) => ({
    key,
    kind,
    required,
    label: inLanguage(labels, language),
    options: options.map((option) => ({ key: option.key, label: inLanguage(option.labels, language) })),
  }))
}
