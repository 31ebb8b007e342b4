/**
 * What the waitlist form needs of the questions at sign-up, free of every import: the form's
 * browser code reads it (components/waitlist/answers.ts, question-fields.tsx), and the Studio's
 * rules around it (./rules.ts) stay out of the page's JavaScript.
 */

export const QUESTION_LIMITS = { questions: 5, options: 12, minOptions: 2, answer: 200, label: 160, optionLabel: 80 } as const

export type QuestionKind = 'one' | 'many' | 'text'

/** A question as the form in one language draws it. */
export type FormQuestion = { key: string; kind: QuestionKind; required: boolean; label: string; options: { key: string; label: string }[] }
