import type { MetadataRoute } from 'next'
import { publicEnv } from '@/lib/env'

export default function robots(): MetadataRoute.Robots {
  return {
    // The Studio and the API are for editors and webhooks, not for search results.
    rules: { userAgent: '*', allow: '/', disallow: ['/studio', '/api/'] },
    sitemap: new URL('/sitemap.xml', publicEnv.siteUrl).toString(),
  }
}
