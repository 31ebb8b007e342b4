import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getAboutPage, getSiteSettings } from '@/lib/content'
import { routeLanguage, type LanguageParams } from '@/lib/i18n/route'
import { notFoundMetadata, pageMetadata } from '@/lib/metadata'
import { PageBuilder } from '@/components/sections/page-builder'

export async function generateMetadata({ params }: LanguageParams): Promise<Metadata> {
  const language = await routeLanguage(params)
  const page = await getAboutPage(language)
  return page ? pageMetadata(page.seo, 'about', { language, languages: page.languages }) : notFoundMetadata(language)
}

export default async function AboutPage({ params }: LanguageParams) {
  const language = await routeLanguage(params)
  const [page, settings] = await Promise.all([getAboutPage(language), getSiteSettings(language)])
  if (!page) notFound()
  return <PageBuilder title={page.title} sections={page.sections} context={{ settings, ctaLocation: 'about_cta' }} />
}
