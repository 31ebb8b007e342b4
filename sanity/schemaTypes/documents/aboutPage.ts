import { defineField, defineType } from 'sanity'
import { pageTitleField, sectionsField } from '../../sections/schemas'

export const aboutPage = defineType({
  name: 'aboutPage',
  title: 'About page',
  type: 'document',
  fields: [pageTitleField('The page’s name, e.g. "About us".'), sectionsField(), defineField({ name: 'seo', title: 'Search and sharing', type: 'seo' })],
  preview: { prepare: () => ({ title: 'About page' }) },
})
