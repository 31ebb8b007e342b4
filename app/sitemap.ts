import type { MetadataRoute } from 'next'
import { getPageList } from '@/lib/content'
import { pagePath } from '@/lib/content/paths'
import { publicEnv } from '@/lib/env'
import { SHARE_IMAGE_PAGES } from '@/lib/metadata'

/** The fixed pages and every published page made in the Studio, except those hidden from search engines. */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const fixed = Object.values(SHARE_IMAGE_PAGES).map((path) => ({
    url: new URL(path, publicEnv.siteUrl).toString(),
    changeFrequency: 'weekly' as const,
    priority: path === '/' ? 1 : 0.7,
  }))
  const pages = (await getPageList())
    .filter((page) => !page.noindex)
    .map((page) => ({ url: new URL(pagePath(page.slug), publicEnv.siteUrl).toString(), lastModified: page.updatedAt, changeFrequency: 'monthly' as const, priority: 0.5 }))
  return [...fixed, ...pages]
}
