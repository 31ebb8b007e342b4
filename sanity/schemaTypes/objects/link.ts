import { defineField, defineType } from 'sanity'

/**
 * A link a marketer can point anywhere the site knows about: a page by reference (it follows
 * the page when its slug changes), a path (fixed routes and anchors such as /#pricing), an
 * address, the demo. "Planned" is for pages that do not exist yet (Blog, …): they render as
 * plain text marked "Soon", never as a dead `href="#"`; so does a link to an unpublished page.
 */
export const LINK_KINDS = [
  { title: 'Page on this site', value: 'page' },
  { title: 'Path on this site', value: 'internal' },
  { title: 'External address', value: 'external' },
  { title: 'E-mail address', value: 'email' },
  { title: 'Opens the demo', value: 'demo' },
  { title: 'Planned page (not published yet)', value: 'planned' },
] as const

export const link = defineType({
  name: 'link',
  title: 'Link',
  type: 'object',
  fields: [
    defineField({
      name: 'label',
      title: 'Label',
      type: 'string',
      validation: (rule) => rule.required().max(40),
    }),
    defineField({
      name: 'kind',
      title: 'Destination',
      type: 'string',
      options: { list: [...LINK_KINDS], layout: 'radio' },
      initialValue: 'page',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'page',
      title: 'Page',
      description: 'Follows the page when its address changes.',
      type: 'reference',
      to: [{ type: 'page' }],
      hidden: ({ parent }) => parent?.kind !== 'page',
      validation: (rule) =>
        rule.custom((value, context) => ((context.parent as { kind?: string } | undefined)?.kind !== 'page' || value ? true : 'Choose a page')),
    }),
    defineField({
      name: 'path',
      title: 'Path on this site',
      description: 'Starts with "/", e.g. /about or /#pricing.',
      type: 'string',
      hidden: ({ parent }) => parent?.kind !== 'internal',
      validation: (rule) =>
        rule.custom((value, context) => {
          const parent = context.parent as { kind?: string } | undefined
          if (parent?.kind !== 'internal') return true
          if (!value) return 'A path is required'
          return value.startsWith('/') && !value.startsWith('//') ? true : 'The path must start with a single "/"'
        }),
    }),
    defineField({
      name: 'url',
      title: 'External address',
      type: 'url',
      hidden: ({ parent }) => parent?.kind !== 'external',
      validation: (rule) =>
        rule.uri({ scheme: ['https', 'http'] }).custom((value, context) => {
          const parent = context.parent as { kind?: string } | undefined
          return parent?.kind !== 'external' || value ? true : 'An address is required'
        }),
    }),
    defineField({
      name: 'email',
      title: 'E-mail address',
      type: 'email',
      hidden: ({ parent }) => parent?.kind !== 'email',
      validation: (rule) =>
        rule.custom((value, context) => {
          const parent = context.parent as { kind?: string } | undefined
          return parent?.kind !== 'email' || value ? true : 'An e-mail address is required'
        }),
    }),
  ],
  preview: {
    select: { title: 'label', kind: 'kind', path: 'path', url: 'url', email: 'email', slug: 'page.slug.current' },
    prepare: ({ title, kind, path, url, email, slug }) => ({
      title,
      subtitle: kind === 'planned' ? 'Planned page' : kind === 'demo' ? 'Opens the demo' : kind === 'page' ? (slug ? `/${slug}` : 'A page') : (path ?? url ?? email),
    }),
  },
})
