import type { Metadata } from 'next'
import { getSiteSettings } from '@/sanity/content'
import { publicEnv } from '@/lib/env'
import { routeLanguage } from '@/sanity/content/route-language'
import { feedAlternates } from '@/components/seo/metadata'
import { searchSite } from '@/components/search/documents'
import { normalizeQuery } from '@/components/search/search-index'
import { searchPath } from '@/components/search/path'
import { SearchView } from '@/components/search/search-view'

// The site search. Rendered for each request, since its answer depends on the query; what it
// reads (the words of every page and post) comes from Next's data cache, tagged like the pages,
// and the index is kept in memory until a publish changes those words (components/search).
type Props = {
  params: Promise<{ lang: string }>
  searchParams: Promise<Record<string, string | string[] | undefined>>
}

export async function generateMetadata({ params }: Pick<Props, 'params'>): Promise<Metadata> {
  const language = await routeLanguage(params)
  const [settings, types] = await Promise.all([getSiteSettings(language), feedAlternates(language)])
  return {
    metadataBase: new URL(publicEnv.siteUrl),
    title: { absolute: `${settings.search.title} | ${settings.siteName}` },
    description: settings.seo.description,
    // A page of results for whatever anyone typed is nothing for a search engine to keep.
    robots: { index: false, follow: true },
    alternates: { canonical: searchPath(language), types },
  }
}

export default async function SearchPage({ params, searchParams }: Props) {
  const language = await routeLanguage(params)
  const query = normalizeQuery((await searchParams).q)
  const [settings, hits] = await Promise.all([getSiteSettings(language), searchSite(language, query)])
  return <SearchView copy={settings.search} language={language} query={query} hits={hits} />
}
