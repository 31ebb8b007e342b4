import { defineField, defineType } from 'sanity'
import { pageTitleField, sectionsField } from '../../sections/schemas'

export const landingPage = defineType({
  name: 'landingPage',
  title: 'Landing page',
  type: 'document',
  fields: [
    pageTitleField('What the site is, in a few words.'),
    sectionsField(),
    defineField({
      name: 'demo',
      title: 'Demo conversation',
      description: 'The scripted interview the "Try Demo" buttons open. Write conversations under "Demo conversations".',
      type: 'reference',
      to: [{ type: 'demoConversation' }],
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'seo', title: 'Search and sharing', type: 'seo' }),
  ],
  preview: { prepare: () => ({ title: 'Landing page' }) },
})
