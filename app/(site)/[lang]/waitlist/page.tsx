import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getWaitlistPage } from '@/sanity/content'
import { routeLanguage, type LanguageParams } from '@/sanity/content/route-language'
import { notFoundMetadata, pageMetadata } from '@/components/seo/metadata'
import { WaitlistPageView } from '@/components/waitlist/waitlist-page-view'

export async function generateMetadata({ params }: LanguageParams): Promise<Metadata> {
  const language = await routeLanguage(params)
  const page = await getWaitlistPage(language)
  return page ? pageMetadata(page.seo, 'waitlist', { language, languages: page.languages }) : notFoundMetadata(language)
}

export default async function WaitlistPage({ params }: LanguageParams) {
  const page = await getWaitlistPage(await routeLanguage(params))
  if (!page) notFound()
  return <WaitlistPageView page={page} />
}
