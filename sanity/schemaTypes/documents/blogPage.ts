import { ComposeIcon } from '@sanity/icons/Compose'
import { defineField, defineType } from 'sanity'
import { stringField, textField } from '../objects/fields'
import { sectionField } from '../objects/section'

/** The words around the posts: the blog's and the changelog's headings, and the labels of their lists and pages. */
export const blogPage = defineType({
  name: 'blogPage',
  title: 'Blog and changelog',
  type: 'document',
  icon: ComposeIcon,
  fields: [
    stringField({ name: 'title', title: 'Blog heading', description: 'The heading of /blog, e.g. "Blog".', max: 60 }),
    textField({ name: 'intro', title: 'Blog introduction', max: 240, rows: 2 }),
    stringField({ name: 'changelogTitle', title: 'Changelog heading', description: 'The heading of /changelog.', max: 60 }),
    textField({ name: 'changelogIntro', title: 'Changelog introduction', max: 240, rows: 2 }),
    sectionField('labels', 'Labels', [
      stringField({ name: 'readingTime', title: 'Reading time', description: '{minutes} is replaced by the estimate, e.g. "{minutes} min read".', max: 30 }),
      stringField({ name: 'byline', title: 'Before the authors', description: 'e.g. "By".', max: 20 }),
      stringField({ name: 'categories', title: 'Categories heading', max: 30 }),
      stringField({ name: 'allPosts', title: 'All posts (the unfiltered list)', max: 30 }),
      stringField({ name: 'newer', title: 'Link to newer posts', max: 30 }),
      stringField({ name: 'older', title: 'Link to older posts', max: 30 }),
      stringField({ name: 'pageOf', title: 'Page number', description: '{page} and {pages} are replaced, e.g. "Page {page} of {pages}".', max: 40 }),
      stringField({ name: 'previous', title: 'Previous post', max: 30 }),
      stringField({ name: 'next', title: 'Next post', max: 30 }),
      stringField({ name: 'backToBlog', title: 'Back to the blog', max: 30 }),
      stringField({ name: 'backToChangelog', title: 'Back to the changelog', max: 30 }),
      stringField({ name: 'changelogLink', title: 'Link from the blog to the changelog', max: 40 }),
      stringField({ name: 'feed', title: 'Feed link', description: 'e.g. "Subscribe by RSS".', max: 40 }),
      stringField({ name: 'empty', title: 'An empty list', max: 80 }),
    ]),
    defineField({ name: 'seo', title: 'Search and sharing: /blog', type: 'seo' }),
    defineField({ name: 'changelogSeo', title: 'Search and sharing: /changelog', type: 'seo' }),
  ],
  preview: { prepare: () => ({ title: 'Blog and changelog', media: ComposeIcon }) },
})
