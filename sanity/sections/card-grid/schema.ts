import { ThListIcon } from '@sanity/icons/ThList'
import { defineField } from 'sanity'
import { cardListField, headingFields } from '../../schemaTypes/objects/section'
import { defineSection } from '../define-section'

export const cardGridSection = defineSection({
  name: 'cardGridSection',
  title: 'Cards (features, audiences, values)',
  icon: ThListIcon,
  fields: [
    ...headingFields({ withEyebrow: true }),
    cardListField({ name: 'items', title: 'Cards', min: 2, max: 9 }),
    defineField({
      name: 'layout',
      title: 'Layout',
      description: 'Cards: a grid of icon cards. Rows: one item per row, its text beside its picture, sides alternating.',
      type: 'string',
      options: {
        list: [
          { title: 'Cards', value: 'cards' },
          { title: 'Rows with pictures', value: 'rows' },
        ],
        layout: 'radio',
        direction: 'horizontal',
      },
      initialValue: 'cards',
    }),
    defineField({
      name: 'columns',
      title: 'Cards per row on wide screens',
      hidden: ({ parent }) => (parent as { layout?: string } | undefined)?.layout === 'rows',
      type: 'number',
      options: { list: [2, 3, 4], layout: 'radio', direction: 'horizontal' },
      initialValue: 3,
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'tinted', title: 'Tinted background', type: 'boolean', initialValue: false }),
  ],
})
