import { defineArrayMember, defineField } from 'sanity'
import {
  ladderProblem,
  PERK_APPROVALS,
  REWARD_KINDS,
  REWARD_LIMITS,
  rungKeyProblem,
  rungKindProblem,
  thresholdProblem,
  type RungDraft,
} from '../../rewards/rules'
import { localizedField, problemOrTrue } from './localized-field'

/**
 * The reward ladder (docs/editors.md, "Rewards for bringing friends"): one document for every
 * language, each rung with its words in every language the waitlist page is published in, so the
 * German page never promises what the English one does not. The rules are sanity/rewards/rules.ts.
 */
export const rewardLadderField = defineField({
  name: 'rungs',
  title: 'Rungs',
  description: `Up to ${REWARD_LIMITS.rungs}, fewest friends first. A rung is earned once, the moment a person's confirmed friends reach its number; lowering a number later gives it to everyone already past it, raising it takes nothing back.`,
  type: 'array',
  validation: (rule) => rule.custom((value: RungDraft[] | undefined) => problemOrTrue(ladderProblem(value))),
  of: [
    defineArrayMember({
      type: 'object',
      name: 'rewardRung',
      title: 'Rung',
      validation: (rule) => rule.custom((value: RungDraft | undefined) => problemOrTrue(value ? rungKindProblem(value) : null)),
      fields: [
        defineField({
          name: 'key',
          title: 'Key',
          description:
            'Lowercase letters, digits and hyphens, e.g. "skip-100". It names the reward in the export, the console and the webhook: keep it once people have earned it.',
          type: 'string',
          validation: (rule) => rule.custom((value: string | undefined) => problemOrTrue(rungKeyProblem(value))),
        }),
        defineField({
          name: 'threshold',
          title: 'Confirmed friends',
          description: 'How many friends must sign up through the person’s link and confirm. Held referrals count once a founder grants them.',
          type: 'number',
          validation: (rule) => rule.custom((value: number | undefined) => problemOrTrue(thresholdProblem(value))),
        }),
        defineField({
          name: 'kind',
          title: 'What it gives',
          type: 'string',
          options: { list: REWARD_KINDS.map(({ value, title }) => ({ value, title })), layout: 'radio' },
          initialValue: 'places',
          validation: (rule) => rule.required(),
        }),
        defineField({
          name: 'places',
          title: 'Places up',
          description: 'On top of the places every confirmed friend already gives.',
          type: 'number',
          hidden: ({ parent }) => (parent as RungDraft | undefined)?.kind !== 'places',
        }),
        defineField({
          name: 'approval',
          title: 'Granted',
          type: 'string',
          options: { list: PERK_APPROVALS.map(({ value, title }) => ({ value, title })), layout: 'radio' },
          initialValue: 'instant',
          hidden: ({ parent }) => (parent as RungDraft | undefined)?.kind !== 'perk',
        }),
        localizedField(
          'title',
          'Title',
          'What they get, short, e.g. "Skip 100 places" or "A month free". Shown on their page, after "1 more friend:".',
          REWARD_LIMITS.title,
        ),
        localizedField(
          'description',
          'Description',
          'One sentence: what it means and when it arrives. Shown on their page and in the e-mail.',
          REWARD_LIMITS.description,
        ),
      ],
      preview: {
        select: { title: 'title.0.text', threshold: 'threshold', key: 'key' },
        prepare: ({ title, threshold, key }: { title?: string; threshold?: number; key?: string }) => ({
          title: title ?? key ?? 'Rung',
          subtitle: `${threshold ?? '?'} friends · ${key ?? ''}`,
        }),
      },
    }),
  ],
})
