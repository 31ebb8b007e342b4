/**
 * The form's side of the questions at sign-up (issue #52): reads the answers from the form, judges
 * them as the database's waitlist_answers trigger does (supabase/schemas/15_questions.sql), and says
 * what is wrong in the page's words. The database is the guard (a stale page or a forged request
 * meets it); this module spares a person the round trip. Browser-safe.
 */
import { QUESTION_LIMITS, wordCount, type FormQuestion } from '@/sanity/questions/limits'
import { cleanWaitlistText, codePointLength, isPlainWaitlistText, type WaitlistFieldError } from './rules'
import type { WaitlistErrorCopy } from '@/sanity/content/types'

/** What the insert sends: an option key, several, or the short answer; unanswered questions are left out. */
export type Answers = Record<string, string | string[]>

export type AnswerError = Extract<WaitlistFieldError, 'required' | 'too_long' | 'invalid_characters'> | 'too_few_words'

/** The form control's name for a question (a `name` attribute cannot clash with the fields'). */
export const answerFieldName = (key: string) => `answer-${key}`

/** The id of a question's first control: where the focus goes when it needs an answer. `prefix`: a research task's own (several on one page). */
export const answerControlId = (question: FormQuestion, prefix = 'waitlist-answer') =>
  question.kind === 'text' ? `${prefix}-${question.key}` : `${prefix}-${question.key}-${question.options[0]?.key ?? ''}`

/** A short answer's limits: the sign-up's (at most 200 characters), or a research task's (500, and at least 3 words: sanity/questions/limits.ts TASK_LIMITS). */
export type AnswerLimits = { max: number; minWords: number }
export const SIGN_UP_ANSWER: AnswerLimits = { max: QUESTION_LIMITS.answer, minWords: 0 }

/** The answers as the form holds them: a radio's value, the ticked boxes, the text as typed. */
export function readAnswers(data: Pick<FormData, 'getAll'>, questions: readonly FormQuestion[]): Record<string, string[]> {
  return Object.fromEntries(
    questions.map((question) => [question.key, data.getAll(answerFieldName(question.key)).filter((value): value is string => typeof value === 'string')]),
  )
}

export type AnswersValidation = { answers: Answers; errors: Record<string, AnswerError> }

/**
 * Only the questions' own options, each once in the question's order; a short answer trimmed, at
 * most `limits.max` characters of plain text (the same characters the name may not hold) and at
 * least `limits.minWords` words (wordCount, as the database counts), and a blank one (invisible
 * characters alone: cleanWaitlistText) no answer.
 */
export function validateAnswers(
  questions: readonly FormQuestion[],
  given: Readonly<Record<string, readonly string[]>>,
  limits: AnswerLimits = SIGN_UP_ANSWER,
): AnswersValidation {
  const answers: Answers = {}
  const errors: Record<string, AnswerError> = {}
  for (const question of questions) {
    const values = given[question.key] ?? []
    if (question.kind === 'text') {
      const text = cleanWaitlistText(values[0] ?? '')
      if (!isPlainWaitlistText(text)) errors[question.key] = 'invalid_characters'
      else if (codePointLength(text) > limits.max) errors[question.key] = 'too_long'
      else if (text !== '' && wordCount(text) < limits.minWords) errors[question.key] = 'too_few_words'
      else if (text !== '') answers[question.key] = text
      else if (question.required) errors[question.key] = 'required'
      continue
    }
    const chosen = question.options.map((option) => option.key).filter((key) => values.includes(key))
    const picked = question.kind === 'one' ? chosen.slice(0, 1) : chosen
    if (picked.length > 0) answers[question.key] = question.kind === 'one' ? picked[0]! : picked
    else if (question.required) errors[question.key] = 'required'
  }
  return { answers, errors }
}

export type AnswerCopy = Pick<WaitlistErrorCopy, 'errorRequired' | 'errorTooLong' | 'errorInvalidCharacters'> & {
  errorChoose: string
  answerInSentence: string
  /** A research task's "at least {n} words" (the waitlist page's Research tasks words). */
  errorFewWords?: string
}

/** The message under a question, in the page's words. */
export function answerErrorMessage(question: Pick<FormQuestion, 'kind'>, error: AnswerError, copy: AnswerCopy, limits: AnswerLimits = SIGN_UP_ANSWER): string {
  if (error === 'required' && question.kind !== 'text') return copy.errorChoose
  if (error === 'too_few_words')
    return (copy.errorFewWords ?? copy.errorRequired).replaceAll('{field}', copy.answerInSentence).replaceAll('{n}', String(limits.minWords))
  const template = { required: copy.errorRequired, too_long: copy.errorTooLong, invalid_characters: copy.errorInvalidCharacters }[error]
  return template.replaceAll('{field}', copy.answerInSentence).replaceAll('{n}', String(limits.max))
}

/**
 * The answers analytics may see (`answer_<key>` on waitlist_join): the choices only, as their keys.
 * A short answer is the person's own words and may name them, so it never leaves.
 */
export function answerProperties(questions: readonly FormQuestion[], answers: Answers): Record<`answer_${string}`, string | string[]> {
  const properties: Record<`answer_${string}`, string | string[]> = {}
  for (const question of questions) {
    const answer = answers[question.key]
    if (question.kind !== 'text' && answer !== undefined) properties[`answer_${question.key}`] = answer
  }
  return properties
}
