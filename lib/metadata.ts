import type { Metadata } from 'next'
import type { Page, Seo } from '@/lib/content'
import { getNotFoundPage, getSiteSettings } from '@/lib/content'
import { pagePath } from '@/lib/content/paths'
import { publicEnv } from '@/lib/env'

/** The fixed pages with a drawn share image, by the key /og/<key> uses. */
export const SHARE_IMAGE_PAGES = { home: '/', about: '/about', waitlist: '/waitlist' } as const
export type SharePage = keyof typeof SHARE_IMAGE_PAGES

/** The share image drawn for a page made in the Studio. */
export const pageShareImagePath = (slug: string) => `/og/page/${slug}`

/**
 * A page's title, description, canonical URL and share image from its content, falling
 * back to the site's defaults, and to an image drawn from the title when none was chosen.
 */
async function metadataFor({ seo, path, drawnImage, pageTitle }: { seo: Seo | null; path: string; drawnImage: string; pageTitle?: string }): Promise<Metadata> {
  const settings = await getSiteSettings()
  const ownTitle = seo?.title ?? pageTitle
  const title = ownTitle ? `${ownTitle} | ${settings.siteName}` : settings.seo.title
  const description = seo?.description ?? settings.seo.description
  const image = seo?.image ?? settings.seo.image ?? drawnImage
  return {
    metadataBase: new URL(publicEnv.siteUrl),
    title: { absolute: title },
    description,
    alternates: { canonical: path },
    ...(seo?.noindex ? { robots: { index: false, follow: true } } : {}),
    openGraph: { title, description, url: path, siteName: settings.siteName, type: 'website', images: [{ url: image, width: 1200, height: 630, alt: title }] },
    twitter: { card: 'summary_large_image', title, description, images: [image] },
  }
}

export function pageMetadata(seo: Seo | null, page: SharePage): Promise<Metadata> {
  return metadataFor({ seo, path: SHARE_IMAGE_PAGES[page], drawnImage: `/og/${page}` })
}

export function builderPageMetadata(page: Page): Promise<Metadata> {
  return metadataFor({ seo: page.seo, path: pagePath(page.slug), drawnImage: pageShareImagePath(page.slug), pageTitle: page.title })
}

/** The 404's title and description (Next adds noindex to every not-found answer itself). */
export async function notFoundMetadata(): Promise<Metadata> {
  const page = await getNotFoundPage()
  return { title: { absolute: page.title }, description: page.text }
}
