import { defineArrayMember, defineField } from 'sanity'
import {
  optionKeyProblem,
  optionsProblem,
  QUESTION_KINDS,
  QUESTION_LIMITS,
  questionKeyProblem,
  questionListProblem,
  type QuestionDraft,
} from '../../questions/rules'
import { localizedField, problemOrTrue } from './localized-field'

/**
 * The waitlist page's questions at sign-up (docs/editors.md, "Questions at sign-up"): one document
 * for every language, each question with its words in every language the waitlist page is
 * published in, so the German form can never ask a question the English one does not, or name an
 * option differently. The rules are sanity/questions/rules.ts.
 */

export const waitlistQuestionsField = defineField({
  name: 'questions',
  title: 'Questions at sign-up',
  description: `Up to ${QUESTION_LIMITS.questions}, shown on the waitlist form after the e-mail field in this order. The founders invite by the answers (the console's "Invite next"). Each with its words in every language the waitlist page is published in.`,
  type: 'array',
  validation: (rule) => rule.custom((value: QuestionDraft[] | undefined) => problemOrTrue(questionListProblem(value))),
  of: [questionMember('waitlistQuestion', { answerLimit: QUESTION_LIMITS.answer, askRequired: true })],
})

/**
 * A question, as the sign-up form asks it (`askRequired`: the editor says which are required) or
 * as a research task does (every one answered: sanity/schemaTypes/objects/research-tasks.ts). The
 * kinds and rules are sanity/questions/rules.ts; `answerLimit` is the short answer's length.
 */
export function questionMember(name: string, { answerLimit, askRequired }: { answerLimit: number; askRequired: boolean }) {
  return defineArrayMember({
    type: 'object',
    name,
    title: 'Question',
    validation: (rule) => rule.custom((value: QuestionDraft | undefined) => problemOrTrue(value ? optionsProblem(value) : null)),
    fields: [
      defineField({
        name: 'key',
        title: 'Key',
        description: askRequired
          ? 'Lowercase letters, digits and hyphens, e.g. "role". It names the answers in the export, the console and analytics (answer_role): keep it once people have answered.'
          : 'Lowercase letters, digits and hyphens, e.g. "method". It names the answers in the export, the console and the task.completed webhook: keep it once people have answered.',
        type: 'string',
        validation: (rule) => rule.custom((value: string | undefined) => problemOrTrue(questionKeyProblem(value))),
      }),
      defineField({
        name: 'kind',
        title: 'Kind of answer',
        type: 'string',
        options: {
          list: QUESTION_KINDS.map(({ value, title }) => ({ value, title: value === 'text' ? `A short answer (at most ${answerLimit} characters)` : title })),
          layout: 'radio',
        },
        initialValue: 'one',
        validation: (rule) => rule.required(),
      }),
      ...(askRequired
        ? [
            defineField({
              name: 'required',
              title: 'Required',
              description: 'A required question must be answered to sign up. Add one after people have signed up and their answers stay empty.',
              type: 'boolean',
              initialValue: false,
            }),
          ]
        : []),
      localizedField('label', 'Question', 'The question, in each language.', QUESTION_LIMITS.label),
      defineField({
        name: 'options',
        title: 'Options',
        description: `For a choice: ${QUESTION_LIMITS.minOptions} to ${QUESTION_LIMITS.options}. None for a short answer.`,
        type: 'array',
        hidden: ({ parent }) => (parent as QuestionDraft | undefined)?.kind === 'text',
        of: [
          defineArrayMember({
            type: 'object',
            name: `${name}Option`,
            title: 'Option',
            fields: [
              defineField({
                name: 'key',
                title: 'Key',
                description: 'e.g. "product-manager": what the founders filter by (--where role=product-manager). Keep it once people have chosen it.',
                type: 'string',
                validation: (rule) => rule.custom((value: string | undefined) => problemOrTrue(optionKeyProblem(value))),
              }),
              localizedField('label', 'Option', 'The option, in each language.', QUESTION_LIMITS.optionLabel),
            ],
            preview: { select: { title: 'label.0.text', subtitle: 'key' } },
          }),
        ],
      }),
    ],
    preview: { select: { title: 'label.0.text', subtitle: 'key' } },
  })
}
