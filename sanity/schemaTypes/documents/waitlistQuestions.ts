import { HelpCircleIcon } from '@sanity/icons/HelpCircle'
import { defineType } from 'sanity'
import { waitlistQuestionsField } from '../objects/waitlist-questions'

/**
 * The questions the waitlist form asks at sign-up: one document for every language (a question is
 * asked in all of them or none). Publishing it copies them to the database, which from then on
 * accepts answers to these questions only (components/waitlist/questions-sync.ts).
 */
export const waitlistQuestions = defineType({
  name: 'waitlistQuestions',
  title: 'Questions at sign-up',
  type: 'document',
  icon: HelpCircleIcon,
  fields: [waitlistQuestionsField],
  preview: {
    select: { questions: 'questions' },
    prepare: ({ questions }: { questions?: unknown[] }) => ({ title: 'Questions at sign-up', subtitle: `${questions?.length ?? 0} questions` }),
  },
})
