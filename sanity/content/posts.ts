import { stegaClean } from '@sanity/client/stega'
import readingTime from 'reading-time'
import type { BlogPageQueryResult, CategoriesQueryResult, PostFeedQueryResult, PostQueryResult, PostSummariesQueryResult } from '@/sanity/types.generated'
import { pageCount, postListPath, postPath, POSTS_PER_PAGE } from '@/lib/content/paths'
import { cleanLanguages, toAlternates, toSeo } from './reshape'
import type { BlogCopy, Category, FeedPost, Post, PostListPage, PostSummary } from './types'

// Posts from query results to what the blog's components, feeds, sitemap and proxy use. Pure, so
// the tests run it over the seed with groq-js and no Next.js runtime.

type RawSummary = PostSummariesQueryResult[number]

/**
 * The sample rule for posts (sanity/content/sample.ts has it for sections): a post or author flagged
 * "Sample content" is shown, marked, on a developer's machine and in previews, and a deployed site
 * neither shows nor lists a sample post, nor names a sample author.
 */
export type SampleMode = 'show' | 'hide'

export function toPostSummary(raw: RawSummary, samples: SampleMode): PostSummary {
  const slug = stegaClean(raw.slug)
  const language = stegaClean(raw.language)
  return {
    id: raw._id,
    slug,
    language,
    path: postPath(slug, language),
    alternates: toAlternates(raw.translations, postPath, { slug, language }),
    title: raw.title,
    excerpt: raw.excerpt,
    publishedAt: stegaClean(raw.publishedAt),
    updatedAt: raw._updatedAt,
    kind: stegaClean(raw.kind) === 'changelog' ? 'changelog' : 'article',
    isSample: raw.isSample === true,
    noindex: raw.noindex === true,
    categories: (raw.categories ?? []).filter((category) => category.slug).map((category) => ({ title: category.title, slug: stegaClean(category.slug) })),
    authors: (raw.authors ?? [])
      .filter((author) => samples === 'show' || author.isSample !== true)
      .map((author) => ({ name: author.name, role: author.role, picture: author.picture?.asset ? { ...author.picture, alt: '' } : null })),
  }
}

/** The posts a site shows, newest first, in every language (lists take their language's: `inLanguage`). */
export function toPostSummaries(raw: PostSummariesQueryResult, samples: SampleMode): PostSummary[] {
  return raw.filter((post) => samples === 'show' || post.isSample !== true).map((post) => toPostSummary(post, samples))
}

/** What is written in one language: its posts, its categories. */
export const inLanguage = <T extends { language: string }>(items: T[], language: string) => items.filter((item) => item.language === language)

/** Whole minutes at 200 words a minute (reading-time's default), never less than one. */
export const readingMinutes = (text: string) => Math.max(1, Math.round(readingTime(text).minutes))

export function toPost(raw: NonNullable<PostQueryResult>, samples: SampleMode): Post | null {
  if (samples === 'hide' && raw.isSample === true) return null
  return { ...toPostSummary(raw, samples), body: raw.body, readingMinutes: readingMinutes(raw.plainText), seo: toSeo(raw.seo) }
}

export function toFeedPosts(raw: PostFeedQueryResult, samples: SampleMode): FeedPost[] {
  return raw.filter((post) => samples === 'show' || post.isSample !== true).map((post) => ({ ...toPostSummary(post, samples), body: post.body }))
}

/**
 * The categories with at least one article to show in their language: an empty category has no
 * list. `posts` are every language's; a category counts the articles of its own.
 */
export function toCategories(raw: CategoriesQueryResult, posts: PostSummary[]): Category[] {
  return raw
    .map((category) => {
      const language = stegaClean(category.language)
      const slug = stegaClean(category.slug)
      return {
        title: category.title,
        slug,
        description: category.description,
        language,
        alternates: toAlternates(category.translations, (other, code) => postListPath({ category: other, language: code }), { slug, language }),
      }
    })
    .filter((category) => articles(inLanguage(posts, category.language), category.slug).length > 0)
}

export function toBlogCopy(raw: NonNullable<BlogPageQueryResult>, language: string): BlogCopy {
  return { ...raw, language, languages: cleanLanguages(raw.languages), seo: toSeo(raw.seo), changelogSeo: toSeo(raw.changelogSeo) }
}

/** The articles of /blog (changelog entries have /changelog), optionally of one category. */
export function articles(posts: PostSummary[], category?: string | null): PostSummary[] {
  return posts.filter((post) => post.kind === 'article' && (!category || post.categories.some((c) => c.slug === category)))
}

export const changelogEntries = (posts: PostSummary[]) => posts.filter((post) => post.kind === 'changelog')

/** One page of the articles, or null when that page does not exist (a 404, not an empty list). */
export function postListPage(
  posts: PostSummary[],
  { category = null, page = 1, language }: { category?: Category | null; page?: number; language: string },
): PostListPage | null {
  const listed = articles(posts, category?.slug)
  const pages = pageCount(listed.length)
  if (!Number.isInteger(page) || page < 1 || page > pages) return null
  return { posts: listed.slice((page - 1) * POSTS_PER_PAGE, page * POSTS_PER_PAGE), page, pages, category, language }
}

/** Every address the lists of one language take: /blog, its pages, each category's pages (posts and categories in that language). */
export function postListPaths(posts: PostSummary[], categories: Category[], language: string): { category: string | null; page: number; language: string }[] {
  const lists = [
    { category: null as string | null, count: articles(posts).length },
    ...categories.map((c) => ({ category: c.slug, count: articles(posts, c.slug).length })),
  ]
  return lists.flatMap(({ category, count }) => Array.from({ length: pageCount(count) }, (_, index) => ({ category, page: index + 1, language })))
}

/** The posts of the same kind published just before and just after this one. */
export function neighbours(posts: PostSummary[], post: PostSummary): { previous: PostSummary | null; next: PostSummary | null } {
  const same = posts.filter((other) => other.kind === post.kind)
  const index = same.findIndex((other) => other.id === post.id)
  // Newest first: the next (newer) post comes before it in the list.
  return { previous: index >= 0 ? (same[index + 1] ?? null) : null, next: index > 0 ? (same[index - 1] ?? null) : null }
}
