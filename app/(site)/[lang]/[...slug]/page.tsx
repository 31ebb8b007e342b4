import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getPage, getPageList, getSiteSettings } from '@/sanity/content'
import { SLUG_PATTERN } from '@/lib/content/paths'
import { routeLanguage } from '@/sanity/content/route-language'
import { builderPageMetadata, notFoundMetadata } from '@/components/seo/metadata'
import { breadcrumbStructuredData } from '@/components/seo/structured-data'
import { JsonLd } from '@/components/seo/json-ld'
import { PageBuilder } from '@/components/sections/page-builder'
import { routeVariants, variantMetadata, withVariants } from '@/components/variants/variant-page'

// Every page made in the Studio, at /<slug>. Published pages are prerendered at build; one
// published later renders on its first request and is then cached like the others (same
// tags, so the webhook refreshes it). proxy.ts answers redirects and unknown addresses before
// they get here; the notFound() below is for what it lets through on purpose (a draft preview's
// unknown slug) or has not heard of yet (a page unpublished moments ago on another server).

type Params = { params: Promise<{ lang: string; slug: string[] }> }

export async function generateStaticParams({ params }: { params: { lang: string } }) {
  return (await getPageList()).filter((page) => page.language === params.lang).map((page) => ({ slug: [page.slug] }))
}

/** The page this path names in its language: only a single segment can be a page's slug. */
async function pageAt(params: Params['params']) {
  const { slug: segments } = await params
  const language = await routeLanguage(params)
  const [slug] = segments
  return segments.length === 1 && slug && SLUG_PATTERN.test(slug) ? getPage(slug, language) : null
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const page = await pageAt(params)
  return page ? variantMetadata(params, builderPageMetadata(page)) : notFoundMetadata((await params).lang)
}

/** Also an experiment's variant page (see the landing page). */
export default async function BuilderPage({ params }: Params) {
  const [page, route] = await Promise.all([pageAt(params), routeVariants(params)])
  if (!page) notFound()
  const [settings, { sections, marks }] = await Promise.all([getSiteSettings(page.language), withVariants(page.sections, route, page.language)])
  return (
    <>
      <JsonLd data={breadcrumbStructuredData(settings, page)} />
      <PageBuilder title={page.title} sections={sections} marks={marks} context={{ settings, ctaLocation: 'cta' }} />
    </>
  )
}
