import { ComposeIcon } from '@sanity/icons/Compose'
import { defineArrayMember, defineField, defineType, type SlugValue } from 'sanity'
import { richTextField } from '../../sections/rich-text/schema'
import { postPath, postSlugProblem } from '../../../lib/content/paths'
import { stringField, textField } from '../objects/fields'
import { sampleFlagField } from '../objects/sampleFlag'
import { previousSlugsField } from '../objects/previous-slugs'
import { uniqueSlug } from '../objects/validation-client'

export const POST_KINDS = [
  { title: 'Article (on /blog)', value: 'article' },
  { title: 'Changelog entry (on /changelog)', value: 'changelog' },
] as const

/**
 * A blog post or a changelog entry. Title, address, date, summary and text are all it needs to
 * publish; authors, categories and the search fields are optional. Its page is /blog/<slug>.
 */
export const post = defineType({
  name: 'post',
  title: 'Post',
  type: 'document',
  icon: ComposeIcon,
  groups: [
    { name: 'content', title: 'Content', default: true },
    { name: 'details', title: 'Details' },
    { name: 'seo', title: 'Search and sharing' },
  ],
  fields: [
    stringField({
      name: 'title',
      title: 'Title',
      description: 'The post’s heading, its title in lists, feeds and e-mails, and its share image.',
      max: 100,
      group: 'content',
    }),
    defineField({
      name: 'slug',
      title: 'Address',
      description:
        'The post is at /blog/<slug>. Lowercase words and hyphens. Changing it after publishing moves the post: the old address redirects here once published (see Old addresses).',
      type: 'slug',
      group: 'content',
      options: { source: 'title', maxLength: 80, isUnique: () => true },
      validation: (rule) =>
        rule
          .required()
          .custom((value: SlugValue | undefined, context) =>
            uniqueSlug(context, { type: 'post', slug: value?.current, problem: postSlugProblem, pathOf: postPath }),
          ),
    }),
    previousSlugsField('post', 'content'),
    defineField({
      name: 'publishedAt',
      title: 'Publication date',
      description: 'Shown on the post and orders the lists (newest first).',
      type: 'datetime',
      group: 'content',
      initialValue: () => new Date().toISOString(),
      validation: (rule) => rule.required(),
    }),
    textField({
      name: 'excerpt',
      title: 'Summary',
      description: 'One to three sentences: the post in lists, feeds, e-mails and search results.',
      max: 300,
      group: 'content',
    }),
    { ...richTextField({ code: true }), group: 'content' },
    defineField({
      name: 'kind',
      title: 'Kind',
      type: 'string',
      group: 'details',
      options: { list: [...POST_KINDS], layout: 'radio' },
      initialValue: 'article',
    }),
    defineField({
      name: 'authors',
      title: 'Authors',
      type: 'array',
      group: 'details',
      of: [defineArrayMember({ type: 'reference', to: [{ type: 'person' }] })],
      validation: (rule) => rule.unique().max(4),
    }),
    defineField({
      name: 'categories',
      title: 'Categories',
      type: 'array',
      group: 'details',
      of: [defineArrayMember({ type: 'reference', to: [{ type: 'category' }] })],
      validation: (rule) => rule.unique().max(3),
    }),
    defineField({
      name: 'emailToSubscribers',
      title: 'E-mail it to subscribers',
      description:
        'On: when published, the post’s title and summary go by e-mail, once, to every confirmed person on the waitlist who asked for updates. Publishing again or editing it later sends nothing more. The e-mail’s other words are in Waitlist page → E-mails.',
      type: 'boolean',
      group: 'details',
      initialValue: false,
    }),
    {
      ...sampleFlagField({
        initialValue: false,
        description:
          'On while this post is an example to replace: labelled "Sample" on a developer’s machine and in previews, and never shown, listed or e-mailed by a deployed site.',
      }),
      group: 'details',
    },
    defineField({ name: 'seo', title: 'Search and sharing', type: 'seo', group: 'seo' }),
  ],
  orderings: [{ title: 'Newest first', name: 'publishedAtDesc', by: [{ field: 'publishedAt', direction: 'desc' }] }],
  preview: {
    select: { title: 'title', slug: 'slug.current', date: 'publishedAt', kind: 'kind' },
    prepare: ({ title, slug, date, kind }: { title?: string; slug?: string; date?: string; kind?: string }) => ({
      title,
      subtitle: [kind === 'changelog' ? 'Changelog' : 'Article', date?.slice(0, 10), slug ? postPath(slug) : 'No address yet'].filter(Boolean).join(' · '),
      media: ComposeIcon,
    }),
  },
})
