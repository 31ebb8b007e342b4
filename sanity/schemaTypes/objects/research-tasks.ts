import { defineArrayMember, defineField } from 'sanity'
import { placesProblem, TASK_LIMITS, taskKeyProblem, taskListProblem, taskQuestionsProblem, type TaskDraft } from '../../tasks/rules'
import type { QuestionDraft } from '../../questions/rules'
import { localizedField, problemOrTrue } from './localized-field'
import { questionMember } from './waitlist-questions'

/**
 * The research tasks (docs/editors.md, "Research tasks"): up to 5, each a title, 1 to 5 questions of
 * the sign-up's kinds and the places it gives, with their words in every language the waitlist page
 * is published in. The rules are sanity/tasks/rules.ts.
 */
export const researchTasksField = defineField({
  name: 'tasks',
  title: 'Research tasks',
  description: `Up to ${TASK_LIMITS.tasks}, shown in this order on a confirmed person's own page (the link in their confirmation e-mail). Answering one moves them up by its places, once; all tasks together give at most the founders' cap (50 places unless they changed it).`,
  type: 'array',
  validation: (rule) => rule.custom((value: TaskDraft[] | undefined) => problemOrTrue(taskListProblem(value))),
  of: [
    defineArrayMember({
      type: 'object',
      name: 'researchTask',
      title: 'Task',
      fields: [
        defineField({
          name: 'key',
          title: 'Key',
          description:
            'Lowercase letters, digits and hyphens, e.g. "how-you-learn". It names the task in the export (task_how-you-learn), the console and the webhook: keep it once people have answered.',
          type: 'string',
          validation: (rule) => rule.custom((value: string | undefined) => problemOrTrue(taskKeyProblem(value))),
        }),
        localizedField('title', 'Title', 'What the task is about, as its heading on the own page, in each language.', TASK_LIMITS.title),
        defineField({
          name: 'places',
          title: 'Places',
          description: `How many places up the line answering it gives (1 to ${TASK_LIMITS.places}); a friend who confirms gives 5.`,
          type: 'number',
          initialValue: 10,
          validation: (rule) => rule.custom((value: number | undefined) => problemOrTrue(placesProblem(value))),
        }),
        defineField({
          name: 'questions',
          title: 'Questions',
          description: `1 to ${TASK_LIMITS.questions}, every one answered. A short answer takes ${TASK_LIMITS.minWords} words or more and at most ${TASK_LIMITS.answer} characters.`,
          type: 'array',
          validation: (rule) => rule.custom((value: QuestionDraft[] | undefined) => problemOrTrue(taskQuestionsProblem(value))),
          of: [questionMember('researchTaskQuestion', { answerLimit: TASK_LIMITS.answer, askRequired: false })],
        }),
      ],
      preview: { select: { title: 'title.0.text', subtitle: 'key' } },
    }),
  ],
})
