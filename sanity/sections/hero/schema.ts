import { RocketIcon } from '@sanity/icons/Rocket'
import { defineField } from 'sanity'
import { stringField, stringListField, textField, usageClaimHint } from '../../schemaTypes/objects/fields'
import { defineSection } from '../define-section'

export const heroSection = defineSection({
  name: 'heroSection',
  title: 'Hero',
  icon: RocketIcon,
  fields: [
    stringField({ name: 'badge', title: 'Badge above the headline', max: 60, required: false }),
    stringField({ name: 'title', title: 'Headline', max: 80 }),
    stringField({ name: 'titleHighlight', title: 'Highlighted end of the headline', max: 60, required: false }),
    textField({ name: 'subtitle', title: 'Subtitle', max: 280, rows: 3 }),
    stringField({ name: 'primaryCtaLabel', title: 'Primary button (to the waitlist)', max: 32 }),
    stringField({ name: 'secondaryCtaLabel', title: 'Secondary button (opens the demo)', max: 32 }),
    stringListField({ name: 'highlights', title: 'Highlights under the buttons', max: 40, maxItems: 4 }),
    stringField({ name: 'socialProof', title: 'Social proof line', description: usageClaimHint, max: 90, required: false }),
    defineField({
      name: 'visual',
      title: 'Product picture',
      description:
        'Optional. A demo conversation shown beside the headline as a still picture: the interview and the insight it posts to Slack, drawn as part of the page (the "See How It Works" button plays the demo). Write conversations under "Demo conversations".',
      type: 'reference',
      to: [{ type: 'demoConversation' }],
    }),
    stringField({
      name: 'visualCaption',
      title: 'Caption under the picture',
      description: 'e.g. "A real interview flow, and what lands in Slack".',
      max: 100,
      required: false,
    }),
  ],
})
