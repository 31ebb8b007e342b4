import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { NOT_FOUND_SCOPES } from '@/lib/content/paths'
import { notFoundMetadata } from '@/lib/metadata'
import { NotFoundView } from '@/components/site/not-found-view'

// The 404 drawn by the server: proxy.ts rewrites every address the content does not answer to
// /not-found/<scope>, with status 404 (the scope is the part of the site the address belongs to:
// one today; a language prefix can add its own). Rendered on its first request rather than at
// build, so that it renders with that status and Next marks it noindex as it marks every 404,
// then cached like any page: one render however many addresses ask for it.
type Params = { params: Promise<{ scope: string }> }

export function generateStaticParams() {
  return []
}

export function generateMetadata(): Promise<Metadata> {
  return notFoundMetadata()
}

export default async function NotFoundPage({ params }: Params) {
  if (!(NOT_FOUND_SCOPES as readonly string[]).includes((await params).scope)) notFound()
  return <NotFoundView />
}
