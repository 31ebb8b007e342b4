import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getBlogCopy, getCategories, getPostListPage, getPostSummaries, getSiteSettings } from '@/sanity/content'
import { postListPaths } from '@/sanity/content/posts'
import { routeLanguage } from '@/sanity/content/route-language'
import { notFoundMetadata, postListMetadata } from '@/components/seo/metadata'
import { PostListView } from './post-list-view'

// The four list routes (/blog, /blog/page/<n>, /blog/category/<slug> and its pages) are one list
// with two optional parts of the address; each route file only says which parts it has.

export type ListAddress = { lang: string; category?: string; page?: string }

/** A page number as the address writes it: digits only, no leading zero ("/blog/page/02" is not page 2). */
const pageNumber = (page: string | undefined) => (page === undefined ? 1 : /^[1-9]\d{0,5}$/.test(page) ? Number(page) : NaN)

async function listAt({ lang, category, page }: ListAddress) {
  const language = await routeLanguage(Promise.resolve({ lang }))
  const number = pageNumber(page)
  // Page 1 has one address: /blog/page/1 is not it.
  if (Number.isNaN(number) || page === '1') return null
  return getPostListPage(language, category ?? null, number)
}

/** The prerendered lists of a language: every page of /blog and of each category. */
export async function listParams({ withCategory, withPage }: { withCategory: boolean; withPage: boolean }, language: string) {
  const paths = postListPaths(await getPostSummaries(language), await getCategories(language), language)
  return paths
    .filter((path) => (path.category !== null) === withCategory && path.page > 1 === withPage)
    .map((path) => ({ ...(withCategory ? { category: path.category! } : {}), ...(withPage ? { page: String(path.page) } : {}) }))
}

export async function listMetadata(address: ListAddress): Promise<Metadata> {
  const list = await listAt(address)
  const copy = list ? await getBlogCopy(list.language) : null
  return list && copy ? postListMetadata(copy, list) : notFoundMetadata(address.lang)
}

export async function PostListRoute({ address }: { address: ListAddress }) {
  const list = await listAt(address)
  if (!list) notFound()
  const [copy, categories, settings] = await Promise.all([getBlogCopy(list.language), getCategories(list.language), getSiteSettings(list.language)])
  if (!copy) notFound()
  return <PostListView list={list} categories={categories} copy={copy} sampleLabel={settings.labels.sample} />
}
