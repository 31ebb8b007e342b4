import 'server-only'
import { cache } from 'react'
import {
  aboutPageQuery,
  blogPageQuery,
  categoriesQuery,
  demoConversationQuery,
  landingPageQuery,
  notFoundPageQuery,
  pageListQuery,
  pageQuery,
  postFeedQuery,
  postQuery,
  postSummariesQuery,
  siteSettingsQuery,
  waitlistPageQuery,
} from '@/sanity/queries'
import { serverEnv } from '@/lib/env'
import { isDraftPreview, sanityFetch, sanityFetchOptional } from './fetch'
import { applySampleRule } from './sample'
import { postListPage, toBlogCopy, toCategories, toFeedPosts, toPost, toPostSummaries } from './posts'
import type { PostKind } from './types'
import { contentTokens, toDemoConversation, toNotFoundPage, toPage, toPageList, toSectionPage, toSiteSettings, toWaitlistPage } from './reshape'

// What pages call. Each getter names the document types it depends on as cache tags, so a
// publish revalidates exactly the pages that show the change. Links to pages (menus, footer,
// rich text) read the page's slug: whatever shows links depends on the `page` tag too, so a
// renamed or unpublished page updates every menu and text that links to it.

/** Sections show pricing tiers and demo conversations (the hero's picture), and link to pages. */
const SECTION_TAGS = ['pricingTier', 'demoConversation', 'page']

const getRawSettings = cache(() => sanityFetch({ query: siteSettingsQuery, tags: ['siteSettings', 'page'], label: 'site settings' }))

export const getSiteSettings = cache(async () => toSiteSettings(await getRawSettings()))

/** Sample content only where SAMPLE_CONTENT shows it (lib/content/sample.ts). */
const samplesRuled = <P extends Parameters<typeof applySampleRule>[0]>(page: P, where: string) => applySampleRule(page, where, serverEnv().sampleContent)

const usageClaim = async () => (await getRawSettings()).usageClaim
const tokens = async () => contentTokens(await getRawSettings())

export const getLandingPage = cache(async () =>
  samplesRuled(toSectionPage(await sanityFetch({ query: landingPageQuery, tags: ['landingPage', ...SECTION_TAGS], label: 'landing page' }), await tokens()), '/'),
)

export const getAboutPage = cache(async () =>
  samplesRuled(toSectionPage(await sanityFetch({ query: aboutPageQuery, tags: ['aboutPage', ...SECTION_TAGS], label: 'about page' }), await tokens()), '/about'),
)

/**
 * The page at /<slug>, or null when no published page has that slug. A slug is first looked up in
 * the cached list of pages, so an address nobody published costs no query and no cache entry of
 * its own (anyone can request a million of them); a draft preview asks for the slug itself, to
 * show a page that is not published yet.
 */
export const getPage = cache(async (slug: string) => {
  if (!(await isDraftPreview()) && !(await getPageList()).some((page) => page.slug === slug)) return null
  const raw = await sanityFetchOptional({ query: pageQuery, params: { slug }, tags: SECTION_TAGS, label: `page "/${slug}"` })
  return raw ? samplesRuled(toPage(raw, await tokens()), `/${slug}`) : null
})

/** Every published page (for prerendering and the sitemap, which run outside any request: never drafts). */
export const getPageList = cache(async () =>
  toPageList(await sanityFetch({ query: pageListQuery, tags: ['page'], label: 'list of pages', publishedOnly: true })),
)

export const getWaitlistPage = cache(async () =>
  toWaitlistPage(await sanityFetch({ query: waitlistPageQuery, tags: ['waitlistPage', 'page'], label: 'waitlist page' }), await usageClaim()),
)

export const getNotFoundPage = cache(async () =>
  toNotFoundPage(await sanityFetch({ query: notFoundPageQuery, tags: ['notFoundPage'], label: 'not-found page' })),
)

/** The conversation the landing page's demo field points at (for the demo widget). */
export const getDemoConversation = cache(async () =>
  toDemoConversation(await sanityFetch({ query: demoConversationQuery, tags: ['landingPage', 'demoConversation'], label: 'demo conversation' })),
)

/** Posts show their authors and categories. */
const POST_TAGS = ['post', 'person', 'category']

export const getBlogCopy = cache(async () => toBlogCopy(await sanityFetch({ query: blogPageQuery, tags: ['blogPage'], label: 'blog page' })))

/** Every post the site shows, newest first, without their text (lists, sitemap, prerendering: never drafts). */
export const getPostSummaries = cache(async () =>
  toPostSummaries(await sanityFetch({ query: postSummariesQuery, tags: POST_TAGS, label: 'list of posts', publishedOnly: true }), serverEnv().sampleContent),
)

/** The categories that have articles to show. */
export const getCategories = cache(async () =>
  toCategories(await sanityFetch({ query: categoriesQuery, tags: POST_TAGS, label: 'list of categories', publishedOnly: true }), await getPostSummaries()),
)

/** A page of /blog or of a category's list; null for a category or page number that does not exist. */
export const getPostListPage = cache(async (categorySlug: string | null, page: number) => {
  const category = categorySlug ? ((await getCategories()).find((candidate) => candidate.slug === categorySlug) ?? null) : null
  if (categorySlug && !category) return null
  return postListPage(await getPostSummaries(), { category, page })
})

/** The post at /blog/<slug>, or null. As with pages, an unknown slug costs no query of its own. */
export const getPost = cache(async (slug: string) => {
  if (!(await isDraftPreview()) && !(await getPostSummaries()).some((post) => post.slug === slug)) return null
  const raw = await sanityFetchOptional({ query: postQuery, params: { slug }, tags: POST_TAGS, label: `post "${slug}"` })
  return raw ? toPost(raw, serverEnv().sampleContent) : null
})

/** The newest posts of a kind with their text, for its feed. */
export const getFeedPosts = cache(async (kind: PostKind) =>
  toFeedPosts(
    await sanityFetch({ query: postFeedQuery, params: { kinds: [kind] }, tags: POST_TAGS, label: `${kind} feed`, publishedOnly: true }),
    serverEnv().sampleContent,
  ),
)

export type * from './types'
