import { defineArrayMember, defineField } from 'sanity'
import { MOVABLE_TYPES } from '../../../lib/content/paths'

type Movable = keyof typeof MOVABLE_TYPES

/**
 * A page's or post's old addresses: filled by publishing a changed slug (the Studio's Publish,
 * sanity/studio/keep-old-addresses.ts; `content:publish`), each answered with a 308 to the current
 * address in the document's language (sanity/content/addresses.ts). Shown so an editor can see and
 * remove them; one typed in by hand follows the same slug rule.
 */
export function previousSlugsField(type: Movable, group?: string) {
  const { problem, pathOf } = MOVABLE_TYPES[type]
  return defineField({
    name: 'previousSlugs',
    title: 'Old addresses',
    description: `Where this ${type} was before its address changed (${pathOf('<old>')}): each sends visitors and search engines here for good (308). Added by itself when a changed address is published; remove one to stop its redirect. A page published at one of them takes it over.`,
    type: 'array',
    group,
    of: [defineArrayMember({ type: 'string' })],
    options: { layout: 'tags' },
    validation: (rule) =>
      rule.unique().custom((value: string[] | undefined, context) => {
        const current = (context.document as { slug?: { current?: string } } | undefined)?.slug?.current
        for (const slug of value ?? []) {
          const why = problem(slug)
          if (why) return `"${slug}": ${why}`
          if (slug === current) return `"${slug}" is this ${type}’s address now: remove it from the old ones`
        }
        return true
      }),
  })
}
