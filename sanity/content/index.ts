import 'server-only'
import { cache } from 'react'
import {
  aboutPageQuery,
  blogPageQuery,
  campaignQuery,
  categoriesQuery,
  demoConversationQuery,
  experimentQuery,
  landingPageQuery,
  llmsQuery,
  notFoundPageQuery,
  pageListQuery,
  pageQuery,
  postFeedQuery,
  postQuery,
  postSummariesQuery,
  postTextsQuery,
  siteLanguagesQuery,
  siteSettingsQuery,
  waitlistPageQuery,
} from '@/sanity/queries'
import { serverEnv } from '@/lib/env'
import { DEFAULT_LANGUAGE, localizePath, type SiteLanguage } from '@/lib/i18n/languages'
import { isDraftPreview, sanityFetch, sanityFetchOptional, type Query } from './fetch'
import { pagePath, postPath } from '@/lib/content/paths'
import { applySampleRule } from './sample'
import { inLanguage, postListPage, toBlogCopy, toCategories, toFeedPosts, toPost, toPostSummaries } from './posts'
import type { NotFoundPage, PostKind } from './types'
import {
  contentTokens,
  toDemoConversation,
  toNotFoundPage,
  toPage,
  toCampaign,
  toExperiment,
  toPageList,
  toSectionPage,
  toSiteLanguages,
  toSiteSettings,
  toWaitlistPage,
} from './reshape'

// What pages call. Each getter names the document types it depends on as cache tags, so a
// publish revalidates exactly the pages that show the change. Links to pages (menus, footer,
// rich text) read the page's slug: whatever shows links depends on the `page` tag too, so a
// renamed or unpublished page updates every menu and text that links to it.

/** Sections show pricing tiers and demo conversations (the hero's picture), and link to pages. */
const SECTION_TAGS = ['pricingTier', 'demoConversation', 'page']

const getRawSettings = cache((language: string) =>
  sanityFetch({ query: siteSettingsQuery, params: { language }, tags: ['siteSettings', 'page'], label: labelIn('site settings', language) }),
)

/** "landing page (de)": which document in which language, for error messages. */
const labelIn = (label: string, language: string) => (language === DEFAULT_LANGUAGE ? label : `${label} (${language})`)

/**
 * The languages the site speaks (the Languages document), English first. A dataset without one
 * speaks English only: that is what it had before languages existed.
 */
export const getSiteLanguages = cache(async (): Promise<SiteLanguage[]> => {
  const raw = await sanityFetchOptional({ query: siteLanguagesQuery, tags: ['siteLanguages'], label: 'languages', publishedOnly: true })
  return toSiteLanguages(raw)
})

export const getSiteSettings = cache(async (language: string) => toSiteSettings(await getRawSettings(language), language))

/** Sample content only where SAMPLE_CONTENT shows it (sanity/content/sample.ts). */
const samplesRuled = <P extends Parameters<typeof applySampleRule>[0]>(page: P, where: string) => applySampleRule(page, where, serverEnv().sampleContent)

const usageClaim = async (language: string) => (await getRawSettings(language)).usageClaim
const tokens = async (language: string) => contentTokens(await getRawSettings(language))

/**
 * A fixed page in a language, or null when it has no document in that language (not translated
 * yet: not shown there). The base language's must exist: its absence throws, as it always did.
 */
async function fixedPage<const Q extends Query>(query: Q, language: string, tags: string[], label: string) {
  const options = { query, params: { language }, tags, label: labelIn(label, language) }
  return language === DEFAULT_LANGUAGE ? sanityFetch(options) : sanityFetchOptional(options)
}

export const getLandingPage = cache(async (language: string) => {
  const raw = await fixedPage(landingPageQuery, language, ['landingPage', ...SECTION_TAGS], 'landing page')
  return raw ? samplesRuled(toSectionPage(raw, await tokens(language), language), localizePath('/', language)) : null
})

export const getAboutPage = cache(async (language: string) => {
  const raw = await fixedPage(aboutPageQuery, language, ['aboutPage', ...SECTION_TAGS], 'about page')
  return raw ? samplesRuled(toSectionPage(raw, await tokens(language), language), localizePath('/about', language)) : null
})

/**
 * The page at /<slug> in a language, or null when no published page there has that slug. A slug
 * is first looked up in the cached list of pages, so an address nobody published costs no query
 * and no cache entry of its own (anyone can request a million of them); a draft preview asks for
 * the slug itself, to show a page that is not published yet.
 */
export const getPage = cache(async (slug: string, language: string) => {
  if (!(await isDraftPreview()) && !(await getPageList()).some((page) => page.slug === slug && page.language === language)) return null
  const raw = await sanityFetchOptional({ query: pageQuery, params: { slug, language }, tags: SECTION_TAGS, label: `page "${pagePath(slug, language)}"` })
  return raw ? samplesRuled(toPage(raw, await tokens(language), language), pagePath(slug, language)) : null
})

/**
 * A published experiment's variants as a variant page draws them: each variant's section in one
 * language, reshaped like the page's own (null for a language it has none in). The `experiment`
 * tag refreshes the variant pages when it is stopped, promoted or edited.
 */
export const getExperiment = cache(async (key: string, language: string) => {
  const raw = await sanityFetchOptional({
    query: experimentQuery,
    params: { key, language },
    tags: ['experiment', ...SECTION_TAGS],
    label: `experiment "${key}"`,
    publishedOnly: true,
  })
  return raw ? toExperiment(raw, await tokens(language), language) : null
})

export const getCampaign = cache(async (key: string, language: string) => {
  const raw = await sanityFetchOptional({
    query: campaignQuery,
    params: { key, language },
    tags: ['campaign', ...SECTION_TAGS],
    label: `campaign version "${key}"`,
    publishedOnly: true,
  })
  return raw ? toCampaign(raw, await tokens(language), language) : null
})

/** Every published page in every language (for prerendering and the sitemap, which run outside any request: never drafts). */
export const getPageList = cache(async () =>
  toPageList(await sanityFetch({ query: pageListQuery, tags: ['page'], label: 'list of pages', publishedOnly: true })),
)

export const getWaitlistPage = cache(async (language: string) => {
  const raw = await fixedPage(waitlistPageQuery, language, ['waitlistPage', 'waitlistQuestions', 'waitlistRewards', 'waitlistTasks', 'page'], 'waitlist page')
  return raw ? toWaitlistPage(raw, await usageClaim(language), language) : null
})

/** The 404's words in a language, else in English: a missing address always gets words. */
export const getNotFoundPage = cache(async (language: string): Promise<NotFoundPage> => {
  const raw = await fixedPage(notFoundPageQuery, language, ['notFoundPage'], 'not-found page')
  return raw ? toNotFoundPage(raw) : getNotFoundPage(DEFAULT_LANGUAGE)
})

/** The words of /llms.txt in a language (Site settings), or null where the settings have none. */
export const getLlmsCopy = cache((language: string) =>
  sanityFetchOptional({ query: llmsQuery, params: { language }, tags: ['siteSettings'], label: labelIn('llms.txt words', language) }),
)

/** The conversation the landing page's demo field points at (for the demo widget). */
export const getDemoConversation = cache(async (language: string) =>
  toDemoConversation(
    await sanityFetch({
      query: demoConversationQuery,
      params: { language },
      tags: ['landingPage', 'demoConversation'],
      label: labelIn('demo conversation', language),
    }),
  ),
)

/** Posts show their authors and categories. */
const POST_TAGS = ['post', 'person', 'category']

export const getBlogCopy = cache(async (language: string) => {
  const raw = await fixedPage(blogPageQuery, language, ['blogPage'], 'blog page')
  return raw ? toBlogCopy(raw, language) : null
})

/** Every post the site shows in every language, newest first, without their text (lists, sitemap, prerendering: never drafts). */
export const getAllPostSummaries = cache(async () =>
  toPostSummaries(await sanityFetch({ query: postSummariesQuery, tags: POST_TAGS, label: 'list of posts', publishedOnly: true }), serverEnv().sampleContent),
)

/** The posts written in a language, newest first. */
export const getPostSummaries = cache(async (language: string) => inLanguage(await getAllPostSummaries(), language))

/** Every language's categories that have articles to show in it. */
export const getAllCategories = cache(async () =>
  toCategories(await sanityFetch({ query: categoriesQuery, tags: POST_TAGS, label: 'list of categories', publishedOnly: true }), await getAllPostSummaries()),
)

/** The categories of a language that have articles to show. */
export const getCategories = cache(async (language: string) => inLanguage(await getAllCategories(), language))

/** A page of /blog or of a category's list in a language; null for a category or page number that does not exist. */
export const getPostListPage = cache(async (language: string, categorySlug: string | null, page: number) => {
  const category = categorySlug ? ((await getCategories(language)).find((candidate) => candidate.slug === categorySlug) ?? null) : null
  if (categorySlug && !category) return null
  return postListPage(await getPostSummaries(language), { category, page, language })
})

/** The post at /blog/<slug> in a language, or null. As with pages, an unknown slug costs no query of its own. */
export const getPost = cache(async (slug: string, language: string) => {
  if (!(await isDraftPreview()) && !(await getPostSummaries(language)).some((post) => post.slug === slug)) return null
  const raw = await sanityFetchOptional({ query: postQuery, params: { slug, language }, tags: POST_TAGS, label: `post "${postPath(slug, language)}"` })
  return raw ? toPost(raw, serverEnv().sampleContent) : null
})

/** The newest posts of a kind in a language with their text, for its feed. */
export const getFeedPosts = cache(async (kind: PostKind, language: string) =>
  toFeedPosts(
    await sanityFetch({
      query: postFeedQuery,
      params: { kinds: [kind], language },
      tags: POST_TAGS,
      label: labelIn(`${kind} feed`, language),
      publishedOnly: true,
    }),
    serverEnv().sampleContent,
  ),
)

/**
 * The words of every published post in a language (their paragraphs and code), by id: the site
 * search's index reads them beside `getPostSummaries`, which says which posts a site shows.
 */
export const getPostTexts = cache(
  async (language: string) =>
    new Map(
      (
        await sanityFetch({ query: postTextsQuery, params: { language }, tags: POST_TAGS, label: labelIn('text of the posts', language), publishedOnly: true })
      ).map((post) => [post._id, [post.text, ...(post.code ?? [])].filter(Boolean).join('\n')]),
    ),
)

export type * from './types'
