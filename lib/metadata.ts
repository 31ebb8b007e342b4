import type { Metadata } from 'next'
import type { BlogCopy, Page, Post, PostListPage, Seo } from '@/lib/content'
import { getBlogCopy, getNotFoundPage, getSiteSettings } from '@/lib/content'
import { FEED_PATHS, pagePath, postListPath } from '@/lib/content/paths'
import { publicEnv } from '@/lib/env'

/** The fixed pages with a drawn share image, by the key /og/<key> uses. */
export const SHARE_IMAGE_PAGES = { home: '/', about: '/about', waitlist: '/waitlist', blog: '/blog', changelog: '/changelog' } as const
export type SharePage = keyof typeof SHARE_IMAGE_PAGES

/** The share image drawn for a page made in the Studio. */
export const pageShareImagePath = (slug: string) => `/og/page/${slug}`

/** The share image drawn for a post. */
export const postShareImagePath = (slug: string) => `/og/post/${slug}`

/** The feeds, named in every page's head so a feed reader finds them from any address. */
export async function feedAlternates(): Promise<NonNullable<Metadata['alternates']>['types']> {
  const [copy, settings] = await Promise.all([getBlogCopy(), getSiteSettings()])
  return {
    'application/rss+xml': [
      { url: FEED_PATHS[0], title: `${copy.title} | ${settings.siteName}` },
      { url: FEED_PATHS[1], title: `${copy.changelogTitle} | ${settings.siteName}` },
    ],
  }
}

/**
 * A page's title, description, canonical URL and share image from its content, falling
 * back to the site's defaults, and to an image drawn from the title when none was chosen.
 */
async function metadataFor({
  seo,
  path,
  drawnImage,
  pageTitle,
  pageDescription,
  article,
}: {
  seo: Seo | null
  path: string
  drawnImage: string
  pageTitle?: string
  /** What the page says of itself when its search fields are empty (a post's summary). */
  pageDescription?: string | null
  article?: { publishedTime: string; modifiedTime: string; authors: string[] }
}): Promise<Metadata> {
  const [settings, types] = await Promise.all([getSiteSettings(), feedAlternates()])
  const ownTitle = seo?.title ?? pageTitle
  const title = ownTitle ? `${ownTitle} | ${settings.siteName}` : settings.seo.title
  const description = seo?.description ?? pageDescription ?? settings.seo.description
  const image = seo?.image ?? (article ? null : settings.seo.image) ?? drawnImage
  const images = [{ url: image, width: 1200, height: 630, alt: title }]
  return {
    metadataBase: new URL(publicEnv.siteUrl),
    title: { absolute: title },
    description,
    alternates: { canonical: path, types },
    ...(seo?.noindex ? { robots: { index: false, follow: true } } : {}),
    openGraph: article
      ? { title, description, url: path, siteName: settings.siteName, type: 'article', ...article, images }
      : { title, description, url: path, siteName: settings.siteName, type: 'website', images },
    twitter: { card: 'summary_large_image', title, description, images: [image] },
  }
}

export function pageMetadata(seo: Seo | null, page: SharePage): Promise<Metadata> {
  return metadataFor({ seo, path: SHARE_IMAGE_PAGES[page], drawnImage: `/og/${page}` })
}

export function postMetadata(post: Post): Promise<Metadata> {
  return metadataFor({
    seo: post.seo,
    path: post.path,
    drawnImage: postShareImagePath(post.slug),
    pageTitle: post.title,
    pageDescription: post.excerpt,
    article: { publishedTime: post.publishedAt, modifiedTime: post.updatedAt, authors: post.authors.map((author) => author.name) },
  })
}

/** /blog, its later pages and each category's: one canonical address each (page 1 has no number). */
export function postListMetadata(copy: BlogCopy, list: PostListPage): Promise<Metadata> {
  const { category, page, pages } = list
  const numbered = page > 1 ? ` (${copy.labels.pageOf.replaceAll('{page}', String(page)).replaceAll('{pages}', String(pages))})` : ''
  const seo = category ? { ...copy.seo, title: `${category.title}: ${copy.title}${numbered}`, description: category.description ?? copy.seo.description } : { ...copy.seo, title: `${copy.seo.title ?? copy.title}${numbered}` }
  return metadataFor({ seo, path: postListPath({ category: category?.slug, page }), drawnImage: '/og/blog' })
}

export function builderPageMetadata(page: Page): Promise<Metadata> {
  return metadataFor({ seo: page.seo, path: pagePath(page.slug), drawnImage: pageShareImagePath(page.slug), pageTitle: page.title })
}

/** The 404's title and description (Next adds noindex to every not-found answer itself). */
export async function notFoundMetadata(): Promise<Metadata> {
  const page = await getNotFoundPage()
  return { title: { absolute: page.title }, description: page.text }
}
