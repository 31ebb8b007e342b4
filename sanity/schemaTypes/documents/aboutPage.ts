import { defineField, defineType } from 'sanity'
import { sectionsField } from '../../../components/sections/schemas'

export const aboutPage = defineType({
  name: 'aboutPage',
  title: 'About page',
  type: 'document',
  fields: [sectionsField(), defineField({ name: 'seo', title: 'Search and sharing', type: 'seo' })],
  preview: { prepare: () => ({ title: 'About page' }) },
})
