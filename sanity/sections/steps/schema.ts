import { OlistIcon } from '@sanity/icons/Olist'
import { defineArrayMember, defineField } from 'sanity'
import { stringField, textField } from '../../schemaTypes/objects/fields'
import { imageField } from '../../schemaTypes/objects/image'
import { headingFields } from '../../schemaTypes/objects/section'
import { defineSection } from '../define-section'

/** "How it works": numbered steps, numbered by their order here. */
export const stepsSection = defineSection({
  name: 'stepsSection',
  title: 'Steps (how it works)',
  icon: OlistIcon,
  fields: [
    ...headingFields({ withEyebrow: true }),
    defineField({
      name: 'steps',
      title: 'Steps',
      description: 'In order: the site numbers them 1, 2, 3… Drag to reorder.',
      type: 'array',
      of: [
        defineArrayMember({
          type: 'object',
          name: 'step',
          fields: [
            stringField({ name: 'title', title: 'Title', max: 60 }),
            textField({ name: 'text', title: 'Text', max: 240, rows: 3 }),
            imageField({ name: 'image', title: 'Picture', description: 'Optional. Shown above the step’s title, e.g. a screenshot of that step.' }),
          ],
          preview: { select: { title: 'title', subtitle: 'text', media: 'image' } },
        }),
      ],
      validation: (rule) => rule.required().min(2).max(5),
    }),
  ],
})
