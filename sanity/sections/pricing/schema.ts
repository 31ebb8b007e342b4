import { BillIcon } from '@sanity/icons/Bill'
import { defineArrayMember, defineField } from 'sanity'
import { stringField } from '../../schemaTypes/objects/fields'
import { headingFields } from '../../schemaTypes/objects/section'
import { defineSection } from '../define-section'

export const pricingSection = defineSection({
  name: 'pricingSection',
  title: 'Pricing',
  icon: BillIcon,
  fields: [
    ...headingFields({ withEyebrow: true }),
    defineField({
      name: 'tiers',
      title: 'Tiers',
      description: 'Shown left to right in this order; drag to reorder. Edit the tiers themselves under "Pricing tiers".',
      type: 'array',
      of: [defineArrayMember({ type: 'reference', to: [{ type: 'pricingTier' }] })],
      validation: (rule) => rule.required().min(1).max(4).unique(),
    }),
    stringField({ name: 'footnote', title: 'Note under the tiers', max: 160, required: false }),
    stringField({ name: 'ctaLabel', title: 'Link under the tiers (to the waitlist)', max: 40 }),
    defineField({
      name: 'labels',
      title: 'Price labels',
      description: "Words the tier cards build from each tier's numbers and switches.",
      type: 'object',
      options: { collapsible: true, collapsed: true },
      fields: [
        stringField({ name: 'free', title: 'Price of 0', max: 20 }),
        stringField({ name: 'perMonth', title: 'Per month suffix', max: 20 }),
        stringField({ name: 'perYear', title: 'Per year suffix', max: 20 }),
        stringField({ name: 'trial', title: 'Trial', description: '{n} is replaced by the number of days.', max: 40 }),
        stringField({ name: 'noCreditCard', title: 'No credit card required', max: 40 }),
        stringField({ name: 'cancelAnytime', title: 'Cancel anytime', max: 40 }),
      ],
      validation: (rule) => rule.required(),
    }),
  ],
})
