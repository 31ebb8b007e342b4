import type { MetadataRoute } from 'next'
import { getAllCategories, getAllPostSummaries, getPageList, type Alternate } from '@/sanity/content'
import { publicEnv } from '@/lib/env'
import { fixedPageAlternates, fixedPageLanguages, languageAlternates, type SharePage } from '@/components/seo/metadata'

const absolute = (path: string) => new URL(path, publicEnv.siteUrl).toString()

/** One entry per language an address is in, each naming all of them (hreflang in the sitemap, x-default included). */
function entries(alternates: Alternate[], rest: Omit<MetadataRoute.Sitemap[number], 'url' | 'alternates'>): MetadataRoute.Sitemap {
  const languages = languageAlternates(alternates)
  const absoluteLanguages = languages && Object.fromEntries(Object.entries(languages).map(([code, path]) => [code, absolute(path)]))
  return alternates.map((alternate) => ({
    url: absolute(alternate.path),
    ...rest,
    ...(absoluteLanguages ? { alternates: { languages: absoluteLanguages } } : {}),
  }))
}

/**
 * The fixed pages, every published page made in the Studio, every post and each category's list,
 * in every language they are published in, except what is hidden from search engines. A publish
 * refreshes it with the pages (same tags).
 */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const [fixed, pageList, posts, categories] = await Promise.all([fixedPageLanguages(), getPageList(), getAllPostSummaries(), getAllCategories()])
  const fixedEntries = (Object.keys(fixed) as SharePage[]).flatMap((page) =>
    entries(fixedPageAlternates(page, fixed[page]), { changeFrequency: 'weekly', priority: page === 'home' ? 1 : 0.7 }),
  )
  // A page's or post's alternates include itself; its entry is written once, in its own language.
  const own = (item: { path: string; alternates: Alternate[] }) => entries(item.alternates, {}).filter((entry) => entry.url === absolute(item.path))
  const pages = pageList
    .filter((page) => !page.noindex)
    .flatMap((page) => own(page).map((entry) => ({ ...entry, lastModified: page.updatedAt, changeFrequency: 'monthly' as const, priority: 0.5 })))
  const postEntries = posts
    .filter((post) => !post.noindex)
    .flatMap((post) => own(post).map((entry) => ({ ...entry, lastModified: post.updatedAt, changeFrequency: 'monthly' as const, priority: 0.6 })))
  const lists = categories.flatMap((category) =>
    own({ path: category.alternates[0]!.path, alternates: category.alternates }).map((entry) => ({
      ...entry,
      changeFrequency: 'weekly' as const,
      priority: 0.4,
    })),
  )
  return [...fixedEntries, ...pages, ...postEntries, ...lists]
}
