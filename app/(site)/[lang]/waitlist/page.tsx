import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getWaitlistPage } from '@/sanity/content'
import { routeLanguage, type LanguageParams } from '@/sanity/content/route-language'
import { notFoundMetadata, pageMetadata } from '@/components/seo/metadata'
import { WaitlistPageView } from '@/components/waitlist/waitlist-page-view'

// One static page per language: reading `ref` here would render the page for every visit. A link
// preview of a shared `/waitlist?ref=<code>` is a crawler's, which proxy.ts rewrites to the same
// page with the referral's own share image (app/(site)/[lang]/waitlist/ref/[code]/page.tsx).
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
