import { DocumentTextIcon } from '@sanity/icons/DocumentText'
import { defineField } from 'sanity'
import { headingFields } from '../../schemaTypes/objects/section'
import { defineSection } from '../define-section'

export const pageHeaderSection = defineSection({
  name: 'pageHeaderSection',
  title: 'Page header',
  icon: DocumentTextIcon,
  fields: [
    ...headingFields({ withEyebrow: true }),
    defineField({
      name: 'lastUpdated',
      title: 'Last updated',
      description: 'Optional. Shown under the title as "Last updated …", e.g. on legal pages. Change it whenever the text changes.',
      type: 'date',
    }),
  ],
})
