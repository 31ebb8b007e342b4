import { ThListIcon } from '@sanity/icons/ThList'
import { defineField } from 'sanity'
import { cardListField, headingFields } from '../../../sanity/schemaTypes/objects/section'
import { defineSection } from '../define-section'

export const cardGridSection = defineSection({
  name: 'cardGridSection',
  title: 'Cards (features, audiences, values)',
  icon: ThListIcon,
  fields: [
    ...headingFields({ withEyebrow: true }),
    cardListField({ name: 'items', title: 'Cards', min: 2, max: 9 }),
    defineField({
      name: 'columns',
      title: 'Cards per row on wide screens',
      type: 'number',
      options: { list: [2, 3, 4], layout: 'radio', direction: 'horizontal' },
      initialValue: 3,
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'tinted', title: 'Tinted background', type: 'boolean', initialValue: false }),
  ],
})
