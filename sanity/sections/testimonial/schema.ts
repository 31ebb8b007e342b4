import { DoubleQuoteIcon } from '@sanity/icons/DoubleQuote'
import { defineField } from 'sanity'
import { stringField, textField } from '../../schemaTypes/objects/fields'
import { imageField } from '../../schemaTypes/objects/image'
import { sampleFlagField } from '../../schemaTypes/objects/sampleFlag'
import { defineSection } from '../define-section'

/** The quote, its author and role: a section of its own, and part of the closing call to action. */
export const testimonialFields = () => [
  textField({ name: 'quote', title: 'Quote', max: 320, rows: 3 }),
  stringField({ name: 'author', title: 'Name', max: 60 }),
  stringField({ name: 'role', title: 'Role and company', max: 80 }),
  imageField({ name: 'photo', title: 'Photo', description: 'Optional. A portrait, shown small beside the name (which says who it is).', altDescription: null }),
  sampleFlagField(),
]

export const testimonialObjectField = () =>
  defineField({
    name: 'testimonial',
    title: 'Testimonial',
    description: 'Optional.',
    type: 'object',
    options: { collapsible: true },
    fields: testimonialFields(),
  })

export const testimonialSection = defineSection({
  name: 'testimonialSection',
  title: 'Testimonial',
  icon: DoubleQuoteIcon,
  headingField: 'author',
  fields: testimonialFields(),
})
