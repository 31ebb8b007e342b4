import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getPage, getPageList, getSiteSettings } from '@/lib/content'
import { SLUG_PATTERN } from '@/lib/content/paths'
import { builderPageMetadata, notFoundMetadata } from '@/lib/metadata'
import { breadcrumbStructuredData } from '@/components/seo/structured-data'
import { JsonLd } from '@/components/seo/json-ld'
import { PageBuilder } from '@/components/sections/page-builder'

// Every page made in the Studio, at /<slug>. Published pages are prerendered at build; one
// published later renders on its first request and is then cached like the others (same
// tags, so the webhook refreshes it). proxy.ts answers redirects and unknown addresses before
// they get here; the notFound() below is for what it lets through on purpose (a draft preview's
// unknown slug) or has not heard of yet (a page unpublished moments ago on another server).

type Params = { params: Promise<{ slug: string[] }> }

export async function generateStaticParams() {
  return (await getPageList()).map((page) => ({ slug: [page.slug] }))
}

/** The page this path names: only a single segment can be a page's slug. */
async function pageAt(segments: string[]) {
  const [slug] = segments
  return segments.length === 1 && slug && SLUG_PATTERN.test(slug) ? getPage(slug) : null
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const page = await pageAt((await params).slug)
  return page ? builderPageMetadata(page) : notFoundMetadata()
}

export default async function BuilderPage({ params }: Params) {
  const segments = (await params).slug
  const page = await pageAt(segments)
  if (!page) notFound()
  const settings = await getSiteSettings()
  return (
    <>
      <JsonLd data={breadcrumbStructuredData(settings, page)} />
      <PageBuilder title={page.title} sections={page.sections} context={{ settings, ctaLocation: 'cta' }} />
    </>
  )
}
