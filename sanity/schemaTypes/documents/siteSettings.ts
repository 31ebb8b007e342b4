import { defineArrayMember, defineField, defineType } from 'sanity'
import { USAGE_CLAIM_TOKEN, stringField, textField } from '../objects/fields'

const linkList = (name: string, title: string, description?: string, maxItems = 8) =>
  defineField({
    name,
    title,
    description,
    type: 'array',
    of: [defineArrayMember({ type: 'link' })],
    validation: (rule) => rule.required().min(1).max(maxItems),
  })

export const siteSettings = defineType({
  name: 'siteSettings',
  title: 'Site settings',
  type: 'document',
  groups: [
    { name: 'general', title: 'General', default: true },
    { name: 'navigation', title: 'Navigation' },
    { name: 'contact', title: 'Contact' },
    { name: 'footer', title: 'Footer' },
    { name: 'seo', title: 'Search' },
  ],
  fields: [
    stringField({ name: 'siteName', title: 'Site name', max: 40, group: 'general' }),
    stringField({
      name: 'usageClaim',
      title: 'Usage claim',
      description: `How many teams use the product, e.g. "500+ teams". Every page shows this one value wherever its copy contains ${USAGE_CLAIM_TOKEN}.`,
      max: 40,
      group: 'general',
    }),
    defineField({
      name: 'appUrl',
      title: 'App address',
      description: 'The product application that "Sign In" opens.',
      type: 'url',
      group: 'general',
      validation: (rule) => rule.required().uri({ scheme: ['https', 'http'] }),
    }),
    defineField({
      name: 'navigation',
      title: 'Top navigation',
      type: 'object',
      group: 'navigation',
      validation: (rule) => rule.required(),
      fields: [
        linkList('links', 'Links', 'Shown in the bar, e.g. Features and Pricing.', 5),
        stringField({ name: 'resourcesLabel', title: 'Dropdown label', max: 24 }),
        linkList('resources', 'Dropdown links', 'Shown under the dropdown, e.g. About.', 6),
        stringField({ name: 'tryDemoLabel', title: '"Try Demo" button', max: 24 }),
        stringField({ name: 'signInLabel', title: '"Sign In" button', max: 24 }),
        stringField({ name: 'startTrialLabel', title: '"Start Free Trial" button', max: 32 }),
        stringField({ name: 'menuLabel', title: 'Phone menu button (for screen readers)', max: 40 }),
      ],
    }),
    defineField({
      name: 'contact',
      title: 'Contact',
      type: 'object',
      group: 'contact',
      validation: (rule) => rule.required(),
      fields: [
        defineField({ name: 'generalEmail', title: 'General e-mail', type: 'email', validation: (rule) => rule.required() }),
        defineField({ name: 'supportEmail', title: 'Support e-mail', type: 'email', validation: (rule) => rule.required() }),
        stringField({ name: 'location', title: 'Location', max: 60 }),
        defineField({ name: 'twitterUrl', title: 'Twitter / X profile', type: 'url', validation: (rule) => rule.required() }),
        defineField({ name: 'linkedinUrl', title: 'LinkedIn page', type: 'url', validation: (rule) => rule.required() }),
      ],
    }),
    defineField({
      name: 'footer',
      title: 'Footer',
      type: 'object',
      group: 'footer',
      validation: (rule) => rule.required(),
      fields: [
        textField({ name: 'blurb', title: 'Short description', max: 200, rows: 2 }),
        defineField({
          name: 'columns',
          title: 'Link columns',
          description: 'Product, Company and Resources.',
          type: 'array',
          of: [
            defineArrayMember({
              type: 'object',
              name: 'footerColumn',
              fields: [stringField({ name: 'title', title: 'Title', max: 24 }), linkList('links', 'Links', undefined, 8)],
              preview: { select: { title: 'title' } },
            }),
          ],
          validation: (rule) => rule.required().min(1).max(4),
        }),
        linkList('legalLinks', 'Legal links', 'Privacy Policy, Terms of Service, Cookie Policy, GDPR.', 6),
        defineField({
          name: 'badges',
          title: 'Compliance badges',
          description: 'Only claims the company can back up, e.g. "SOC 2 Type II".',
          type: 'array',
          of: [{ type: 'string', validation: (rule) => rule.required().max(32) }],
          validation: (rule) => rule.max(5),
        }),
        stringField({ name: 'statusText', title: 'Status text', max: 48 }),
        stringField({ name: 'copyright', title: 'Copyright line', description: '{year} is replaced by the current year.', max: 80 }),
        stringField({ name: 'socialHeading', title: 'Social links label (for screen readers)', max: 40 }),
      ],
    }),
    defineField({
      name: 'labels',
      title: 'Interface labels',
      description: 'Small words the site shows or reads out to screen readers.',
      type: 'object',
      group: 'general',
      options: { collapsible: true, collapsed: true },
      fields: [
        stringField({ name: 'skipToContent', title: '"Skip to content" link', max: 40 }),
        stringField({ name: 'sample', title: 'Marker for sample content', max: 20 }),
        stringField({ name: 'planned', title: 'Marker for planned pages', max: 20 }),
        stringField({ name: 'closeMenu', title: 'Close menu (screen readers)', max: 40 }),
        stringField({ name: 'mainNavigation', title: 'Main navigation (screen readers)', max: 40 }),
      ],
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'seo',
      title: 'Default search and sharing',
      type: 'object',
      group: 'seo',
      validation: (rule) => rule.required(),
      fields: [
        stringField({ name: 'title', title: 'Default title', max: 70 }),
        textField({ name: 'description', title: 'Default description', max: 160, rows: 2 }),
      ],
    }),
  ],
  preview: { prepare: () => ({ title: 'Site settings' }) },
})
