import { SplitVerticalIcon } from '@sanity/icons/SplitVertical'
import { defineArrayMember, defineField } from 'sanity'
import { stringField, textField } from '../../schemaTypes/objects/fields'
import { defineSection } from '../define-section'

export const textColumnsSection = defineSection({
  name: 'textColumnsSection',
  title: 'Text columns (e.g. mission and vision)',
  icon: SplitVerticalIcon,
  headingField: 'columns.0.title',
  fields: [
    defineField({
      name: 'columns',
      title: 'Columns',
      type: 'array',
      of: [
        defineArrayMember({
          type: 'object',
          name: 'textColumn',
          fields: [stringField({ name: 'title', title: 'Title', max: 60 }), textField({ name: 'body', title: 'Text', max: 900, rows: 5 })],
          preview: { select: { title: 'title', subtitle: 'body' } },
        }),
      ],
      validation: (rule) => rule.required().min(1).max(3),
    }),
  ],
})
