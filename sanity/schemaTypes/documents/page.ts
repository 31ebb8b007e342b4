import { DocumentsIcon } from '@sanity/icons/Documents'
import { defineField, defineType, type SlugValue } from 'sanity'
import { pageTitleField, sectionsField } from '../../sections/schemas'
import { pagePath, slugProblem } from '../../../lib/content/paths'
import { previousSlugsField } from '../objects/previous-slugs'
import { uniqueSlug } from '../objects/validation-client'

export const page = defineType({
  name: 'page',
  title: 'Page',
  type: 'document',
  icon: DocumentsIcon,
  fields: [
    pageTitleField('The page’s name in the Studio, in breadcrumbs and in its share image.'),
    defineField({
      name: 'slug',
      title: 'Address',
      description:
        'The page is at /<slug>. Lowercase words and hyphens. Changing it moves the page: links chosen as "Page on this site" follow it, and the old address redirects here once published (see Old addresses).',
      type: 'slug',
      options: { source: 'title', maxLength: 60, isUnique: () => true },
      validation: (rule) =>
        rule
          .required()
          .custom((value: SlugValue | undefined, context) =>
            uniqueSlug(context, { type: 'page', slug: value?.current, problem: slugProblem, pathOf: pagePath }),
          ),
    }),
    previousSlugsField('page'),
    defineField({ name: 'seo', title: 'Search and sharing', type: 'seo' }),
    sectionsField(),
  ],
  preview: {
    select: { title: 'title', slug: 'slug.current' },
    prepare: ({ title, slug }: { title?: string; slug?: string }) => ({ title, subtitle: slug ? pagePath(slug) : 'No address yet', media: DocumentsIcon }),
  },
})
