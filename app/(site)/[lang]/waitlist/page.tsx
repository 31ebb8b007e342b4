import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getWaitlistPage } from '@/sanity/content'
import { routeLanguage, type LanguageParams } from '@/sanity/content/route-language'
import { notFoundMetadata, pageMetadata } from '@/components/seo/metadata'
import { WaitlistPageView } from '@/components/waitlist/waitlist-page-view'

// One static page per language, so a shared `/waitlist?ref=<code>` unfurls with this page's own
// share image (/og/<lang>/waitlist): reading `ref` here would render the page for every visit. A
// referral link's own image is /og/<lang>/ref/<code> (app/og/[lang]/ref/[code]/route.tsx), which
// draws exactly this image while it names nobody; it can carry the sharer's name only once the
// unfurl is pointed at it (see docs/engineers.md, the referral's trail).
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
