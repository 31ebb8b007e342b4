import { StarIcon } from '@sanity/icons/Star'
import { defineType } from 'sanity'
import { rewardLadderField } from '../objects/reward-ladder'

/**
 * The rewards for bringing friends: one ladder for every language. Publishing it copies the rungs'
 * numbers and kinds to the database, which from then on records who earned what
 * (components/waitlist/rewards-sync.ts); the words stay here.
 */
export const waitlistRewards = defineType({
  name: 'waitlistRewards',
  title: 'Rewards for bringing friends',
  type: 'document',
  icon: StarIcon,
  fields: [rewardLadderField],
  preview: {
    select: { rungs: 'rungs' },
    prepare: ({ rungs }: { rungs?: unknown[] }) => ({ title: 'Rewards for bringing friends', subtitle: `${rungs?.length ?? 0} rungs` }),
  },
})
