import { defineField, defineType } from 'sanity'
import { plainTextRule } from '../../../lib/content/plain-text'
import { emailForKind, pageForKind, pathForKind, urlForKind } from './destination'

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
      validation: (rule) => rule.required().max(40).custom(plainTextRule('line')),
    }),
    defineField({
      name: 'kind',
      title: 'Destination',
      type: 'string',
      options: { list: [...LINK_KINDS], layout: 'radio' },
      initialValue: 'page',
      validation: (rule) => rule.required(),
    }),
    pageForKind('page'),
    pathForKind('internal'),
    urlForKind('external'),
    emailForKind('email'),
  ],
  preview: {
    select: { title: 'label', kind: 'kind', path: 'path', url: 'url', email: 'email', slug: 'page.slug.current' },
    prepare: ({ title, kind, path, url, email, slug }) => ({
      title,
      subtitle:
        kind === 'planned' ? 'Planned page' : kind === 'demo' ? 'Opens the demo' : kind === 'page' ? (slug ? `/${slug}` : 'A page') : (path ?? url ?? email),
    }),
  },
})
