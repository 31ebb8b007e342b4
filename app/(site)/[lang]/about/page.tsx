import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getAboutPage, getSiteSettings } from '@/sanity/content'
import { routeLanguage, type LanguageParams } from '@/sanity/content/route-language'
import { notFoundMetadata, pageMetadata } from '@/components/seo/metadata'
import { PageBuilder } from '@/components/sections/page-builder'
import { routeVariants, variantMetadata, withVariants } from '@/components/variants/variant-page'

export async function generateMetadata({ params }: LanguageParams): Promise<Metadata> {
  const language = await routeLanguage(params)
  const page = await getAboutPage(language)
  return page ? variantMetadata(params, pageMetadata(page.seo, 'about', { language, languages: page.languages })) : notFoundMetadata(language)
}

/** Also an experiment's variant page (see the landing page). */
export default async function AboutPage({ params }: LanguageParams) {
  const [language, route] = await Promise.all([routeLanguage(params), routeVariants(params)])
  const [page, settings] = await Promise.all([getAboutPage(language), getSiteSettings(language)])
  if (!page) notFound()
  const { sections, marks } = await withVariants(page.sections, route, language)
  return <PageBuilder title={page.title} sections={sections} marks={marks} context={{ settings, ctaLocation: 'about_cta' }} />
}
