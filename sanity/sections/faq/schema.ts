import { HelpCircleIcon } from '@sanity/icons/HelpCircle'
import { defineArrayMember, defineField } from 'sanity'
import { stringField, textField } from '../../schemaTypes/objects/fields'
import { headingFields } from '../../schemaTypes/objects/section'
import { defineSection } from '../define-section'

export const faqSection = defineSection({
  name: 'faqSection',
  title: 'Frequently asked questions',
  icon: HelpCircleIcon,
  fields: [
    ...headingFields(),
    defineField({
      name: 'items',
      title: 'Questions',
      type: 'array',
      of: [
        defineArrayMember({
          type: 'object',
          name: 'faqItem',
          fields: [stringField({ name: 'question', title: 'Question', max: 120 }), textField({ name: 'answer', title: 'Answer', max: 600, rows: 3 })],
          preview: { select: { title: 'question', subtitle: 'answer' } },
        }),
      ],
      validation: (rule) => rule.required().min(1).max(12),
    }),
  ],
})
