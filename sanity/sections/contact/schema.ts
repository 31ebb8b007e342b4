import { EnvelopeIcon } from '@sanity/icons/Envelope'
import { stringField } from '../../schemaTypes/objects/fields'
import { headingFields } from '../../schemaTypes/objects/section'
import { defineSection } from '../define-section'

/** The addresses and location come from Site settings → Contact; this section only labels them. */
export const contactSection = defineSection({
  name: 'contactSection',
  title: 'Contact details',
  icon: EnvelopeIcon,
  fields: [
    ...headingFields(),
    stringField({ name: 'generalEmailLabel', title: 'Label for the general e-mail', max: 40 }),
    stringField({ name: 'supportEmailLabel', title: 'Label for the support e-mail', max: 40 }),
    stringField({ name: 'locationLabel', title: 'Label for the location', max: 40 }),
  ],
})
