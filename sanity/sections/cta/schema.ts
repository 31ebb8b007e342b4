import { ArrowRightIcon } from '@sanity/icons/ArrowRight'
import { stringField } from '../../schemaTypes/objects/fields'
import { headingFields } from '../../schemaTypes/objects/section'
import { defineSection } from '../define-section'
import { testimonialObjectField } from '../testimonial/schema'

export const ctaSection = defineSection({
  name: 'ctaSection',
  title: 'Closing call to action',
  icon: ArrowRightIcon,
  fields: [
    ...headingFields(),
    stringField({ name: 'primaryCtaLabel', title: 'Primary button (to the waitlist)', max: 32 }),
    stringField({ name: 'secondaryCtaLabel', title: 'Secondary button (opens the demo)', description: 'Optional.', max: 32, required: false }),
    testimonialObjectField(),
  ],
})
