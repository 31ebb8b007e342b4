import { TagIcon } from '@sanity/icons/Tag'
import { defineField, defineType, type SlugValue } from 'sanity'
import { postListPath, slugProblemFor } from '../../../lib/content/paths'
import { stringField, textField } from '../objects/fields'
import { uniqueSlug } from '../objects/validation-client'

/** A topic posts are filed under: its list is at /blog/category/<slug>. */
export const category = defineType({
  name: 'category',
  title: 'Category',
  type: 'document',
  icon: TagIcon,
  fields: [
    stringField({ name: 'title', title: 'Name', max: 40 }),
    defineField({
      name: 'slug',
      title: 'Address',
      description: 'Its posts are listed at /blog/category/<slug>. Lowercase words and hyphens.',
      type: 'slug',
      options: { source: 'title', maxLength: 40, isUnique: () => true },
      validation: (rule) =>
        rule
          .required()
          .custom((value: SlugValue | undefined, context) =>
            uniqueSlug(context, { type: 'category', slug: value?.current, problem: slugProblemFor, pathOf: (slug) => postListPath({ category: slug }) }),
          ),
    }),
    textField({
      name: 'description',
      title: 'Description',
      description: 'One or two sentences above the category’s list, and its description for search engines.',
      max: 200,
      required: false,
      rows: 2,
    }),
  ],
  preview: {
    select: { title: 'title', slug: 'slug.current' },
    prepare: ({ title, slug }: { title?: string; slug?: string }) => ({
      title,
      subtitle: slug ? postListPath({ category: slug }) : 'No address yet',
      media: TagIcon,
    }),
  },
})
