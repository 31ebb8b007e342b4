import type { MetadataRoute } from 'next'
import { publicEnv } from '@/lib/env'
import { SHARE_IMAGE_PAGES } from '@/lib/metadata'

export default function sitemap(): MetadataRoute.Sitemap {
  return Object.values(SHARE_IMAGE_PAGES).map((path) => ({
    url: new URL(path, publicEnv.siteUrl).toString(),
    changeFrequency: 'weekly',
    priority: path === '/' ? 1 : 0.7,
  }))
}
