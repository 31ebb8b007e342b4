import { TextIcon } from '@sanity/icons/Text'
import { stringField, textField, usageClaimHint } from '../../schemaTypes/objects/fields'
import { imageField } from '../../schemaTypes/objects/image'
import { defineSection } from '../define-section'

export const statementSection = defineSection({
  name: 'statementSection',
  title: 'Statement (centred title and text)',
  icon: TextIcon,
  fields: [
    stringField({ name: 'title', title: 'Title', max: 60 }),
    textField({ name: 'body', title: 'Text', description: usageClaimHint, max: 900, rows: 5 }),
    imageField({ name: 'image', title: 'Picture', description: 'Optional. Shown under the text, e.g. the team or the office.', sample: true }),
  ],
})
