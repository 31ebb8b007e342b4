import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { NOT_FOUND_SCOPES } from '@/lib/content/paths'
import { routeLanguage } from '@/sanity/content/route-language'
import { notFoundMetadata } from '@/components/seo/metadata'
import { NotFoundView } from '@/components/site/not-found-view'

// The 404 drawn by the server: proxy.ts rewrites every address the content does not answer to
// /<code>/not-found/<scope>, with status 404, in the language of the address's prefix (English
// without one). Rendered on its first request rather than at build, so that it renders with that
// status and Next marks it noindex as it marks every 404, then cached like any page: one render
// per language however many addresses ask for it.
type Params = { params: Promise<{ lang: string; scope: string }> }

export function generateStaticParams() {
  return []
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return notFoundMetadata(await routeLanguage(params))
}

export default async function NotFoundPage({ params }: Params) {
  const language = await routeLanguage(params)
  if (!(NOT_FOUND_SCOPES as readonly string[]).includes((await params).scope)) notFound()
  return <NotFoundView language={language} />
}
