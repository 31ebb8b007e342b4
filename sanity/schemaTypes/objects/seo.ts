import { defineField, defineType } from 'sanity'

export const seo = defineType({
  name: 'seo',
  title: 'Search and sharing',
  type: 'object',
  options: { collapsible: true, collapsed: true },
  description: 'Leave empty to use the defaults from Site settings.',
  fields: [
    defineField({
      name: 'title',
      title: 'Page title',
      type: 'string',
      validation: (rule) => rule.max(70).warning('Search engines cut titles longer than about 60 characters'),
    }),
    defineField({
      name: 'description',
      title: 'Description',
      type: 'text',
      rows: 2,
      validation: (rule) => rule.max(160).warning('Search engines cut descriptions longer than about 155 characters'),
    }),
  ],
})
