import type { MetadataRoute } from 'next'
import { getCategories, getPageList, getPostSummaries } from '@/lib/content'
import { pagePath, postListPath } from '@/lib/content/paths'
import { publicEnv } from '@/lib/env'
import { SHARE_IMAGE_PAGES } from '@/lib/metadata'

const absolute = (path: string) => new URL(path, publicEnv.siteUrl).toString()

/**
 * The fixed pages, every published page made in the Studio, every post and each category's list,
 * except what is hidden from search engines. A publish refreshes it with the pages (same tags).
 */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const [pageList, posts, categories] = await Promise.all([getPageList(), getPostSummaries(), getCategories()])
  const fixed = Object.values(SHARE_IMAGE_PAGES).map((path) => ({
    url: absolute(path),
    changeFrequency: 'weekly' as const,
    priority: path === '/' ? 1 : 0.7,
  }))
  const pages = pageList
    .filter((page) => !page.noindex)
    .map((page) => ({ url: absolute(pagePath(page.slug)), lastModified: page.updatedAt, changeFrequency: 'monthly' as const, priority: 0.5 }))
  const postEntries = posts
    .filter((post) => !post.noindex)
    .map((post) => ({ url: absolute(post.path), lastModified: post.updatedAt, changeFrequency: 'monthly' as const, priority: 0.6 }))
  const lists = categories.map((category) => ({ url: absolute(postListPath({ category: category.slug })), changeFrequency: 'weekly' as const, priority: 0.4 }))
  return [...fixed, ...pages, ...postEntries, ...lists]
}
