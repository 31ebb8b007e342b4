import { defineField } from 'sanity'
import { sitePathProblem } from '../../../lib/content/paths'

// The fields of a destination chosen by kind (a link's, a redirect's): each is shown and
// required only when its kind is chosen.

type Parent = { kind?: string } | undefined
const chosen = (parent: unknown, kind: string) => (parent as Parent)?.kind === kind

/** A page by reference: follows the page when its address changes. */
export const pageForKind = (kind: string) =>
  defineField({
    name: 'page',
    title: 'Page',
    description: 'Follows the page when its address changes.',
    type: 'reference',
    to: [{ type: 'page' }],
    hidden: ({ parent }) => !chosen(parent, kind),
    validation: (rule) => rule.custom((value, context) => (!chosen(context.parent, kind) || value ? true : 'Choose a page')),
  })

/** A path on this site, e.g. /about or /#pricing. */
export const pathForKind = (kind: string, title = 'Path on this site') =>
  defineField({
    name: 'path',
    title,
    description: 'Starts with "/", e.g. /about or /#pricing.',
    type: 'string',
    hidden: ({ parent }) => !chosen(parent, kind),
    validation: (rule) =>
      rule.custom((value: string | undefined, context) => {
        if (!chosen(context.parent, kind)) return true
        return sitePathProblem(value) ?? true
      }),
  })

/** An address on another site: https or http only. */
export const urlForKind = (kind: string) =>
  defineField({
    name: 'url',
    title: 'External address',
    type: 'url',
    hidden: ({ parent }) => !chosen(parent, kind),
    validation: (rule) =>
      rule.uri({ scheme: ['https', 'http'] }).custom((value, context) => (!chosen(context.parent, kind) || value ? true : 'An address is required')),
  })

export const emailForKind = (kind: string) =>
  defineField({
    name: 'email',
    title: 'E-mail address',
    type: 'email',
    hidden: ({ parent }) => !chosen(parent, kind),
    validation: (rule) => rule.custom((value, context) => (!chosen(context.parent, kind) || value ? true : 'An e-mail address is required')),
  })
