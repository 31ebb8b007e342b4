import type { Metadata } from 'next'
import type { Seo } from '@/lib/content'
import { getSiteSettings } from '@/lib/content'
import { publicEnv } from '@/lib/env'

/** A page's title and description from its content, falling back to the site's defaults. */
export async function pageMetadata(seo: Seo | null, path: string): Promise<Metadata> {
  const settings = await getSiteSettings()
  const title = seo?.title ? `${seo.title} | ${settings.siteName}` : settings.seo.title
  const description = seo?.description ?? settings.seo.description
  return {
    metadataBase: new URL(publicEnv.siteUrl),
    title: { absolute: title },
    description,
    alternates: { canonical: path },
    openGraph: { title, description, url: path, siteName: settings.siteName, type: 'website' },
  }
}
