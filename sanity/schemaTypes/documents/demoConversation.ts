import { defineArrayMember, defineField, defineType } from 'sanity'
import { stringField, textField } from '../objects/fields'

/**
 * A scripted research interview for the landing page's demo widget: the interviewer's
 * opening question, then steps in which the visitor picks one of 2–3 suggested replies and
 * the interviewer follows up, and at the end the insight as it would arrive in Slack.
 * Several can be written; the landing page's "Demo conversation" field picks the one shown.
 * The widget's own words (title, badge, buttons, note) are in Site settings → Demo widget.
 */

export const DEMO_SENTIMENTS = [
  { title: 'Positive', value: 'positive' },
  { title: 'Neutral', value: 'neutral' },
  { title: 'Mixed', value: 'mixed' },
  { title: 'Negative', value: 'negative' },
] as const

type Reply = { text?: string; followUp?: string }
type Step = { replies?: Reply[]; followUp?: string; quoted?: boolean }

export const DEMO_LIMITS = { minSteps: 1, maxSteps: 4, minReplies: 2, maxReplies: 3 } as const

/** Every reply must lead somewhere: its own follow-up, or the step's shared one. */
export function stepFollowUpProblem(step: Step | undefined): string | true {
  if (!step || step.followUp?.trim()) return true
  const missing = (step.replies ?? []).filter((reply) => !reply.followUp?.trim()).length
  return missing === 0 ? true : 'Write a shared follow-up, or a follow-up for every reply'
}

/** The insight quotes the visitor's reply to exactly one step. */
export function quotedStepProblem(steps: Step[] | undefined): string | true {
  const quoted = (steps ?? []).filter((step) => step.quoted === true).length
  return quoted === 1 ? true : 'Mark exactly one step with "Quote this reply in the insight"'
}

const reply = defineArrayMember({
  type: 'object',
  name: 'demoReply',
  title: 'Suggested reply',
  fields: [
    stringField({
      name: 'text',
      title: 'Reply',
      description: 'What the user says, offered to the visitor as a button. Write it in the user’s voice.',
      max: 160,
    }),
    textField({
      name: 'followUp',
      title: 'Follow-up to this reply',
      description: 'The interviewer’s next message when this reply is chosen. Leave empty to use the step’s shared follow-up.',
      max: 280,
      rows: 2,
      required: false,
    }),
  ],
  preview: { select: { title: 'text', subtitle: 'followUp' } },
})

const step = defineArrayMember({
  type: 'object',
  name: 'demoStep',
  title: 'Step',
  fields: [
    defineField({
      name: 'replies',
      title: 'Suggested replies',
      description: '2 or 3 answers the visitor chooses from. Keep them variations on one theme, so the insight fits whichever is chosen.',
      type: 'array',
      of: [reply],
      validation: (rule) => rule.required().min(DEMO_LIMITS.minReplies).max(DEMO_LIMITS.maxReplies),
    }),
    textField({
      name: 'followUp',
      title: 'Shared follow-up',
      description:
        'The interviewer’s next message after any reply without its own follow-up. On the last step this is the closing line before the insight is posted.',
      max: 280,
      rows: 2,
      required: false,
    }),
    defineField({
      name: 'quoted',
      title: 'Quote this reply in the insight',
      description: 'The Slack insight quotes what the visitor chose here as its key quote. Exactly one step is quoted.',
      type: 'boolean',
      initialValue: false,
    }),
  ],
  validation: (rule) => rule.custom((value) => stepFollowUpProblem(value as Step | undefined)),
  preview: {
    select: { first: 'replies.0.text', followUp: 'followUp', quoted: 'quoted' },
    prepare: ({ first, followUp, quoted }) => ({ title: first ? `“${first}” …` : 'Step', subtitle: `${quoted ? 'Quoted · ' : ''}${followUp ?? ''}` }),
  },
})

export const demoConversation = defineType({
  name: 'demoConversation',
  title: 'Demo conversation',
  type: 'document',
  fields: [
    stringField({ name: 'title', title: 'Title (Studio only)', description: 'To tell conversations apart here, e.g. "SaaS onboarding".', max: 80 }),
    stringField({
      name: 'context',
      title: 'Product and context',
      description: 'Shown under the widget title: whose users are interviewed about what, e.g. "A sample SaaS app · onboarding".',
      max: 80,
    }),
    textField({ name: 'opening', title: 'Opening question', description: 'The interviewer’s first message.', max: 280, rows: 2 }),
    defineField({
      name: 'steps',
      title: 'Steps',
      description: 'Each step: the visitor picks a reply, the interviewer follows up. Then the insight is posted.',
      type: 'array',
      of: [step],
      validation: (rule) =>
        rule
          .required()
          .min(DEMO_LIMITS.minSteps)
          .max(DEMO_LIMITS.maxSteps)
          .custom((value) => quotedStepProblem(value as Step[] | undefined)),
    }),
    defineField({
      name: 'insight',
      title: 'Insight posted to Slack',
      description: 'What the team would read in Slack after this interview.',
      type: 'object',
      options: { collapsible: true, collapsed: false },
      fields: [
        defineField({
          name: 'channel',
          title: 'Slack channel',
          description: 'Starts with #, lower case, no spaces, e.g. #product-insights.',
          type: 'string',
          validation: (rule) =>
            rule
              .required()
              .max(40)
              .custom((value) =>
                typeof value !== 'string' || /^#[a-z0-9][a-z0-9_-]*$/.test(value) ? true : 'Start with # and use lower-case letters, digits, - or _',
              ),
        }),
        textField({ name: 'summary', title: 'Summary', description: 'One or two sentences: what was learned.', max: 240, rows: 2 }),
        defineField({
          name: 'tags',
          title: 'Tags',
          description: 'Themes the insight is filed under, e.g. "Onboarding".',
          type: 'array',
          of: [{ type: 'string', validation: (rule) => rule.required().max(24) }],
          validation: (rule) => rule.required().min(1).max(3),
        }),
        defineField({
          name: 'sentiment',
          title: 'Sentiment',
          description: 'How the user felt. The words shown are in Site settings → Demo widget.',
          type: 'string',
          options: { list: [...DEMO_SENTIMENTS], layout: 'radio' },
          validation: (rule) => rule.required(),
        }),
        textField({ name: 'action', title: 'Suggested action', description: 'What the team could do next.', max: 240, rows: 2 }),
      ],
      validation: (rule) => rule.required(),
    }),
  ],
  preview: { select: { title: 'title', subtitle: 'context' } },
})
