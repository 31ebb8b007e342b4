import { defineField, defineType } from 'sanity'
import { plainTextRule } from '../../../lib/content/plain-text'

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
      validation: (rule) => [rule.max(70).warning('Search engines cut titles longer than about 60 characters'), rule.custom(plainTextRule('line'))],
    }),
    defineField({
      name: 'description',
      title: 'Description',
      type: 'text',
      rows: 2,
      validation: (rule) => [rule.max(160).warning('Search engines cut descriptions longer than about 155 characters'), rule.custom(plainTextRule('lines'))],
    }),
    defineField({
      name: 'image',
      title: 'Share image',
      description: 'Shown when the page is shared (1200 × 630 works best). Without one the site draws an image from the title.',
      type: 'image',
      options: { hotspot: true },
      fields: [defineField({ name: 'alt', title: 'Alternative text', type: 'string', validation: (rule) => rule.max(120).custom(plainTextRule('line')) })],
    }),
    defineField({
      name: 'noindex',
      title: 'Hide from search engines',
      description: 'On: search engines are asked not to list this page, and it is left out of the sitemap.',
      type: 'boolean',
      initialValue: false,
    }),
  ],
})
