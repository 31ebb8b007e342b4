/**
 * What the waitlist form needs of the questions at sign-up, free of every import: the form's
 * browser code reads it (components/waitlist/answers.ts, question-fields.tsx), and the Studio's
 * rules around it (./rules.ts) stay out of the page's JavaScript.
 */

export const QUESTION_LIMITS = { questions: 5, options: 12, minOptions: 2, answer: 200, label: 160, optionLabel: 80 } as const

export type QuestionKind = 'one' | 'many' | 'text'

/** A question as the form in one language draws it. */
export type FormQuestion = { key: string; kind: QuestionKind; required: boolean; label: string; options: { key: string; label: string }[] }

/**
 * A research task's limits (sanity/tasks/rules.ts; the database repeats them in
 * supabase/schemas/19_tasks.sql): up to 5 tasks of 1 to 5 questions, a short answer of at most 500
 * characters and at least 3 words, 1 to 1,000 places each.
 */
export const TASK_LIMITS = { tasks: 5, questions: 5, answer: 500, minWords: 3, title: 80, places: 1000 } as const

// The database's private.waitlist_word_count (supabase/schemas/15_questions.sql), character for
// character: a run of neither spaces nor ASCII punctuation, or one Chinese or Japanese character.
const CJK = '\\u3040-\\u30ff\\u3400-\\u9fff\\uf900-\\ufaff'
const WORD = new RegExp(
  `[${CJK}]|[^ \\t\\n\\r\\f\\v\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\x21-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7e${CJK}]+`,
  'g',
)

/** How many words a short answer holds, as the database counts them. */
export const wordCount = (text: string): number => text.match(WORD)?.length ?? 0
