import type { Metadata } from 'next'
import type { Seo } from '@/lib/content'
import { getSiteSettings } from '@/lib/content'
import { publicEnv } from '@/lib/env'

/** The pages with a drawn share image, by the key /og/<key> uses. */
export const SHARE_IMAGE_PAGES = { home: '/', about: '/about', waitlist: '/waitlist' } as const
export type SharePage = keyof typeof SHARE_IMAGE_PAGES

/**
 * A page's title, description, canonical URL and share image from its content, falling
 * back to the site's defaults, and to an image drawn from the title when none was chosen.
 */
export async function pageMetadata(seo: Seo | null, page: SharePage): Promise<Metadata> {
  const settings = await getSiteSettings()
  const path = SHARE_IMAGE_PAGES[page]
  const title = seo?.title ? `${seo.title} | ${settings.siteName}` : settings.seo.title
  const description = seo?.description ?? settings.seo.description
  const image = seo?.image ?? settings.seo.image ?? `/og/${page}`
  return {
    metadataBase: new URL(publicEnv.siteUrl),
    title: { absolute: title },
    description,
    alternates: { canonical: path },
    openGraph: { title, description, url: path, siteName: settings.siteName, type: 'website', images: [{ url: image, width: 1200, height: 630, alt: title }] },
    twitter: { card: 'summary_large_image', title, description, images: [image] },
  }
}
