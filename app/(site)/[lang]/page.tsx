import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getLandingPage, getSiteSettings } from '@/sanity/content'
import { routeLanguage, type LanguageParams } from '@/sanity/content/route-language'
import { notFoundMetadata, pageMetadata } from '@/components/seo/metadata'
import { landingStructuredData } from '@/components/seo/structured-data'
import { JsonLd } from '@/components/seo/json-ld'
import { PageBuilder } from '@/components/sections/page-builder'
import { routeVariants, variantMetadata, withVariants } from '@/components/variants/variant-page'

export async function generateMetadata({ params }: LanguageParams): Promise<Metadata> {
  const language = await routeLanguage(params)
  const page = await getLandingPage(language)
  return page ? variantMetadata(params, pageMetadata(page.seo, 'home', { language, languages: page.languages })) : notFoundMetadata(language)
}

// Also an experiment's variant page: the proxy rewrites a participant to /<language>~<variants>
// (components/variants/segment.ts), drawn here with the variant's section in place.
export default async function LandingPage({ params }: LanguageParams) {
  const [language, route] = await Promise.all([routeLanguage(params), routeVariants(params)])
  const [page, settings] = await Promise.all([getLandingPage(language), getSiteSettings(language)])
  if (!page) notFound()
  const { sections, marks } = await withVariants(page.sections, route, language)
  return (
    <>
      <JsonLd data={landingStructuredData(settings, page)} />
      <PageBuilder title={page.title} sections={sections} marks={marks} context={{ settings, ctaLocation: 'cta' }} />
    </>
  )
}
