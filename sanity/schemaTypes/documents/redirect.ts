import { TransferIcon } from '@sanity/icons/Transfer'
import { defineField, defineType } from 'sanity'
import { normalizePath, redirectProblems, redirectSourceProblem, type RedirectEdge } from '../../../lib/content/paths'
import { REDIRECT_DESTINATION_PATH } from '../../fragments'
import { documentClient, publishedId } from '../objects/validation-client'

export const REDIRECT_DESTINATION_KINDS = [
  { title: 'Page on this site', value: 'page' },
  { title: 'Path on this site', value: 'path' },
  { title: 'External address', value: 'url' },
] as const

type Destination = { kind?: string; page?: { _ref?: string }; path?: string; url?: string }
const destinationOf = (context: { parent?: unknown }) => ((context.parent ?? {}) as { destination?: Destination }).destination

export const redirect = defineType({
  name: 'redirect',
  title: 'Redirect',
  type: 'document',
  icon: TransferIcon,
  fields: [
    defineField({
      name: 'source',
      title: 'From (path)',
      description: 'The old address on this site, e.g. /old-pricing. Works as soon as it is published.',
      type: 'string',
      validation: (rule) =>
        rule.required().custom(async (value: string | undefined, context) => {
          const problem = redirectSourceProblem(value)
          if (problem) return problem
          const id = publishedId(context.document?._id)
          const { pages, redirects } = await documentClient(context).fetch<{ pages: string[]; redirects: RedirectEdge[] }>(
            `{
              "pages": *[_type == "page" && defined(slug.current) && !(_id in path("drafts.**"))].slug.current,
              "redirects": *[_type == "redirect" && !(_id in [$id, "drafts." + $id]) && defined(source)]{"id": _id, source, "destinationPath": ${REDIRECT_DESTINATION_PATH}}
            }`,
            { id },
          )
          const destination = destinationOf({ parent: context.document })
          let destinationPath: string | null = destination?.kind === 'path' ? (destination.path ?? null) : null
          if (destination?.kind === 'page' && destination.page?._ref) {
            const slug = await documentClient(context).fetch<string | null>('*[_id == $ref][0].slug.current', { ref: destination.page._ref })
            destinationPath = slug ? `/${slug}` : null
          }
          const problems = redirectProblems({ id, source: normalizePath(value ?? ''), destinationPath }, redirects, pages)
          return problems.length > 0 ? problems.join('. ') : true
        }),
    }),
    defineField({
      name: 'destination',
      title: 'To',
      type: 'object',
      validation: (rule) => rule.required(),
      fields: [
        defineField({
          name: 'kind',
          title: 'Destination',
          type: 'string',
          options: { list: [...REDIRECT_DESTINATION_KINDS], layout: 'radio' },
          initialValue: 'page',
          validation: (rule) => rule.required(),
        }),
        defineField({
          name: 'page',
          title: 'Page',
          type: 'reference',
          to: [{ type: 'page' }],
          hidden: ({ parent }) => parent?.kind !== 'page',
          validation: (rule) => rule.custom((value, context) => (destinationOf({ parent: { destination: context.parent } })?.kind !== 'page' || value ? true : 'Choose a page')),
        }),
        defineField({
          name: 'path',
          title: 'Path',
          description: 'Starts with "/", e.g. /about or /#pricing.',
          type: 'string',
          hidden: ({ parent }) => parent?.kind !== 'path',
          validation: (rule) =>
            rule.custom((value: string | undefined, context) => {
              if ((context.parent as Destination | undefined)?.kind !== 'path') return true
              if (!value) return 'A path is required'
              return value.startsWith('/') && !value.startsWith('//') ? true : 'The path must start with a single "/"'
            }),
        }),
        defineField({
          name: 'url',
          title: 'External address',
          type: 'url',
          hidden: ({ parent }) => parent?.kind !== 'url',
          validation: (rule) =>
            rule.uri({ scheme: ['https', 'http'] }).custom((value, context) => ((context.parent as Destination | undefined)?.kind !== 'url' || value ? true : 'An address is required')),
        }),
      ],
    }),
    defineField({
      name: 'permanent',
      title: 'Permanent',
      description: 'On: the address moved for good (308; search engines move their listing). Off: temporary (307).',
      type: 'boolean',
      initialValue: true,
      validation: (rule) => rule.required(),
    }),
  ],
  preview: {
    select: { source: 'source', kind: 'destination.kind', path: 'destination.path', url: 'destination.url', slug: 'destination.page.slug.current', permanent: 'permanent' },
    prepare: ({ source, kind, path, url, slug, permanent }: Record<string, string | boolean | undefined>) => ({
      title: `${source ?? '?'} → ${(kind === 'page' ? (slug ? `/${slug}` : 'a page') : kind === 'path' ? path : url) ?? '?'}`,
      subtitle: permanent ? 'Permanent (308)' : 'Temporary (307)',
      media: TransferIcon,
    }),
  },
})
