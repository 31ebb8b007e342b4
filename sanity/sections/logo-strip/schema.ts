import { ThLargeIcon } from '@sanity/icons/ThLarge'
import { defineArrayMember, defineField } from 'sanity'
import { stringField, usageClaimHint } from '../../schemaTypes/objects/fields'
import { imageField } from '../../schemaTypes/objects/image'
import { sampleFlagField } from '../../schemaTypes/objects/sampleFlag'
import { defineSection } from '../define-section'

export const logoStripSection = defineSection({
  name: 'logoStripSection',
  title: 'Logo strip',
  icon: ThLargeIcon,
  fields: [
    stringField({ name: 'title', title: 'Title', description: usageClaimHint, max: 90 }),
    defineField({
      name: 'items',
      title: 'Company names',
      type: 'array',
      of: [
        defineArrayMember({
          type: 'object',
          name: 'logo',
          fields: [
            stringField({ name: 'name', title: 'Company name', max: 40 }),
            imageField({
              name: 'logo',
              title: 'Logo',
              description: 'Optional. SVG or PNG; without one the name is shown. The company name is its alternative text.',
              altDescription: null,
            }),
            sampleFlagField(),
          ],
          preview: {
            select: { title: 'name', sample: 'isSample', media: 'logo' },
            prepare: ({ title, sample, media }) => ({ title, media, subtitle: sample ? 'Sample' : undefined }),
          },
        }),
      ],
      validation: (rule) => rule.required().min(3).max(8),
    }),
  ],
})
