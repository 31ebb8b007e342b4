import type { Metadata } from 'next'
import type { Alternate, BlogCopy, Page, Post, PostListPage, Seo } from '@/sanity/content'
import {
  getAboutPage,
  getAllCategories,
  getAllPostSummaries,
  getBlogCopy,
  getLandingPage,
  getNotFoundPage,
  getPageList,
  getSiteLanguages,
  getSiteSettings,
  getWaitlistPage,
} from '@/sanity/content'
import { feedPath, pagePath, postListPath, twinPath } from '@/lib/content/paths'
import { publicEnv } from '@/lib/env'
import { DEFAULT_LANGUAGE, languageTag, localizePath } from '@/lib/i18n/languages'

/** The fixed pages with a drawn share image, by the key /og/<code>/<key> uses. */
export const SHARE_IMAGE_PAGES = { home: '/', about: '/about', waitlist: '/waitlist', blog: '/blog', changelog: '/changelog' } as const
export type SharePage = keyof typeof SHARE_IMAGE_PAGES

/** The share image drawn for a fixed page in a language. */
export const fixedShareImagePath = (page: SharePage, language: string) => `/og/${language}/${page}`

/** The share image drawn for a page made in the Studio. */
export const pageShareImagePath = (slug: string, language: string) => `/og/${language}/page/${slug}`

/** The share image drawn for a post. */
export const postShareImagePath = (slug: string, language: string) => `/og/${language}/post/${slug}`

/** A fixed page's address in each language it is published in. */
export const fixedPageAlternates = (page: SharePage, languages: string[]): Alternate[] =>
  languages.map((language) => ({ language, path: localizePath(SHARE_IMAGE_PAGES[page], language) }))

/** Which languages each fixed page is published in. */
export async function fixedPageLanguages(): Promise<Record<SharePage, string[]>> {
  const languages = (await getSiteLanguages()).map((language) => language.code)
  const where = async (exists: (language: string) => Promise<unknown>) =>
    (await Promise.all(languages.map(async (language) => ((await exists(language)) ? language : null)))).filter((code): code is string => code !== null)
  const [home, about, waitlist, blog] = await Promise.all([where(getLandingPage), where(getAboutPage), where(getWaitlistPage), where(getBlogCopy)])
  return { home, about, waitlist, blog, changelog: blog }
}

/**
 * Every address with its translations: the fixed pages, every published page (those hidden from
 * search engines too), post and category list. What the head's hreflang names, for the switcher.
 */
export async function translationSets(): Promise<Alternate[][]> {
  const [fixed, pages, posts, categories] = await Promise.all([fixedPageLanguages(), getPageList(), getAllPostSummaries(), getAllCategories()])
  return [
    ...(Object.keys(fixed) as SharePage[]).map((page) => fixedPageAlternates(page, fixed[page])),
    ...[...pages, ...posts, ...categories].map((item) => item.alternates),
  ]
}

/** The address of `path` in `language`: its translation where it has one, else that language's home page. */
export function translationIn(sets: Alternate[][], path: string, language: string): string {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path
  const set = sets.find((alternates) => alternates.some((alternate) => alternate.path === normalized))
  return set?.find((alternate) => alternate.language === language)?.path ?? localizePath('/', language)
}

/**
 * The feeds of a language, named in the head of its every page so a feed reader finds them from
 * any address. A language without its blog's words has no feeds.
 */
export async function feedAlternates(language: string): Promise<NonNullable<Metadata['alternates']>['types']> {
  const [copy, settings] = await Promise.all([getBlogCopy(language), getSiteSettings(language)])
  if (!copy) return {}
  return {
    'application/rss+xml': [
      { url: feedPath('article', language), title: `${copy.title} | ${settings.siteName}` },
      { url: feedPath('changelog', language), title: `${copy.changelogTitle} | ${settings.siteName}` },
    ],
  }
}

/**
 * hreflang alternates: each language's address, and English's again as x-default (where a visitor
 * whose language the site does not speak lands). None for a page in one language only.
 */
export function languageAlternates(alternates: Alternate[]): Record<string, string> | undefined {
  if (alternates.length < 2) return undefined
  const base = alternates.find((alternate) => alternate.language === DEFAULT_LANGUAGE)
  return {
    ...Object.fromEntries(alternates.map((alternate) => [languageTag(alternate.language), alternate.path])),
    ...(base ? { 'x-default': base.path } : {}),
  }
}

/**
 * A page's title, description, canonical URL and share image from its content, falling
 * back to the site's defaults, and to an image drawn from the title when none was chosen.
 */
async function metadataFor({
  seo,
  language,
  path,
  alternates,
  drawnImage,
  pageTitle,
  pageDescription,
  article,
  twin = false,
}: {
  seo: Seo | null
  language: string
  path: string
  /** The page in every language it is published in, itself included. */
  alternates: Alternate[]
  drawnImage: string
  pageTitle?: string
  /** What the page says of itself when its search fields are empty (a post's summary). */
  pageDescription?: string | null
  article?: { publishedTime: string; modifiedTime: string; authors: string[] }
  /** Whether the page has a Markdown twin (`<path>.md`), named in its head for whoever reads Markdown. */
  twin?: boolean
}): Promise<Metadata> {
  const [settings, feeds] = await Promise.all([getSiteSettings(language), feedAlternates(language)])
  const types = twin ? { ...feeds, 'text/markdown': twinPath(path) } : feeds
  const ownTitle = seo?.title ?? pageTitle
  const title = ownTitle ? `${ownTitle} | ${settings.siteName}` : settings.seo.title
  const description = seo?.description ?? pageDescription ?? settings.seo.description
  const image = seo?.image ?? (article ? null : settings.seo.image) ?? drawnImage
  const images = [{ url: image, width: 1200, height: 630, alt: title }]
  return {
    metadataBase: new URL(publicEnv.siteUrl),
    title: { absolute: title },
    description,
    alternates: { canonical: path, languages: languageAlternates(alternates), types },
    ...(seo?.noindex ? { robots: { index: false, follow: true } } : {}),
    openGraph: article
      ? { title, description, url: path, siteName: settings.siteName, locale: ogLocale(language), type: 'article', ...article, images }
      : { title, description, url: path, siteName: settings.siteName, locale: ogLocale(language), type: 'website', images },
    twitter: { card: 'summary_large_image', title, description, images: [image] },
  }
}

/** Open Graph's locale: language and region with an underscore (de_DE); a bare language gets its own region. */
const ogLocale = (language: string) => {
  const [code, region] = languageTag(language).split('-')
  return `${code}_${region ?? (code === DEFAULT_LANGUAGE ? 'US' : code!.toUpperCase())}`
}

/** A fixed page (home, about, waitlist, blog, changelog) in a language, with its other languages. */
export function pageMetadata(seo: Seo | null, page: SharePage, { language, languages }: { language: string; languages: string[] }): Promise<Metadata> {
  return metadataFor({
    seo,
    language,
    path: localizePath(SHARE_IMAGE_PAGES[page], language),
    alternates: fixedPageAlternates(page, languages),
    drawnImage: fixedShareImagePath(page, language),
    twin: page === 'home' || page === 'about',
  })
}

export function postMetadata(post: Post): Promise<Metadata> {
  return metadataFor({
    seo: post.seo,
    language: post.language,
    path: post.path,
    alternates: post.alternates,
    drawnImage: postShareImagePath(post.slug, post.language),
    pageTitle: post.title,
    pageDescription: post.excerpt,
    article: { publishedTime: post.publishedAt, modifiedTime: post.updatedAt, authors: post.authors.map((author) => author.name) },
    twin: true,
  })
}

/** /blog, its later pages and each category's: one canonical address each (page 1 has no number). */
export function postListMetadata(copy: BlogCopy, list: PostListPage): Promise<Metadata> {
  const { category, page, pages } = list
  const numbered = page > 1 ? ` (${copy.labels.pageOf.replaceAll('{page}', String(page)).replaceAll('{pages}', String(pages))})` : ''
  const seo = category
    ? { ...copy.seo, title: `${category.title}: ${copy.title}${numbered}`, description: category.description ?? copy.seo.description }
    : { ...copy.seo, title: `${copy.seo.title ?? copy.title}${numbered}` }
  // A category's list is the same list in another language when the categories are translations; page 1 of /blog always is.
  const alternates = category ? category.alternates : page === 1 ? fixedPageAlternates('blog', copy.languages) : []
  return metadataFor({
    seo,
    language: list.language,
    path: postListPath({ category: category?.slug, page, language: list.language }),
    alternates,
    drawnImage: fixedShareImagePath('blog', list.language),
  })
}

export function builderPageMetadata(page: Page): Promise<Metadata> {
  return metadataFor({
    seo: page.seo,
    language: page.language,
    path: pagePath(page.slug, page.language),
    alternates: page.alternates,
    drawnImage: pageShareImagePath(page.slug, page.language),
    pageTitle: page.title,
    twin: true,
  })
}

/** The 404's title and description in a language (Next adds noindex to every not-found answer itself). */
export async function notFoundMetadata(language: string = DEFAULT_LANGUAGE): Promise<Metadata> {
  const page = await getNotFoundPage(language)
  return { title: { absolute: page.title }, description: page.text }
}
