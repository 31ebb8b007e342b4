import { TransferIcon } from '@sanity/icons/Transfer'
import { defineField, defineType } from 'sanity'
import { normalizePath, redirectProblems, redirectSourceProblem, type RedirectEdge } from '../../../lib/content/paths'
import { REDIRECT_DESTINATION_PATH } from '../../fragments'
import { pageForKind, pathForKind, urlForKind } from '../objects/destination'
import { documentClient, publishedId } from '../objects/validation-client'

export const REDIRECT_DESTINATION_KINDS = [
  { title: 'Page on this site', value: 'page' },
  { title: 'Path on this site', value: 'path' },
  { title: 'External address', value: 'url' },
] as const

type Destination = { kind?: string; page?: { _ref?: string }; path?: string; url?: string }

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
              "pages": [
                ...*[_type == "page" && defined(slug.current) && !(_id in path("drafts.**"))]{"path": "/" + slug.current}.path,
                ...*[_type == "post" && defined(slug.current) && !(_id in path("drafts.**"))]{"path": "/blog/" + slug.current}.path
              ],
              "redirects": *[_type == "redirect" && !(_id in [$id, "drafts." + $id]) && defined(source)]{"id": _id, source, "destinationPath": ${REDIRECT_DESTINATION_PATH}}
            }`,
            { id },
          )
          const destination = (context.document as { destination?: Destination } | undefined)?.destination
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
        pageForKind('page'),
        pathForKind('path', 'Path'),
        urlForKind('url'),
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
    select: {
      source: 'source',
      kind: 'destination.kind',
      path: 'destination.path',
      url: 'destination.url',
      slug: 'destination.page.slug.current',
      permanent: 'permanent',
    },
    prepare: ({ source, kind, path, url, slug, permanent }: Record<string, string | boolean | undefined>) => ({
      title: `${source ?? '?'} → ${(kind === 'page' ? (slug ? `/${slug}` : 'a page') : kind === 'path' ? path : url) ?? '?'}`,
      subtitle: permanent ? 'Permanent (308)' : 'Temporary (307)',
      media: TransferIcon,
    }),
  },
})
