import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { getWaitlistPage } from '@/sanity/content'
import { routeLanguage } from '@/sanity/content/route-language'
import { notFoundMetadata, pageMetadata } from '@/components/seo/metadata'
import { isReferralCode } from '@/components/waitlist/share'
import { shareDisplayName } from '@/components/waitlist/share-name'
import { WaitlistPageView } from '@/components/waitlist/waitlist-page-view'

// The waitlist page as a link preview sees a shared `/waitlist?ref=<code>`: proxy.ts rewrites a
// crawler's request for it here (a person's browser gets the one static page, which reads `ref`
// itself), so the preview shows the referral's own share image (/og/<lang>/ref/<code>) when its
// person is on the leaderboard, and the waitlist page's own otherwise: it names nobody who did not
// opt in. The same page and canonical as /waitlist; drawn on a code's first preview and kept for a
// minute, as the name may go with an opt-out (the leaderboard's refresh).
export const revalidate = 60

export function generateStaticParams() {
  return []
}

type Params = { params: Promise<{ lang: string; code: string }> }

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const language = await routeLanguage(params)
  const { code } = await params
  const page = await getWaitlistPage(language)
  if (!page || !isReferralCode(code)) return notFoundMetadata(language)
  const metadata = await pageMetadata(page.seo, 'waitlist', { language, languages: page.languages })
  if (!(await shareDisplayName(code))) return metadata
  const image = `/og/${language}/ref/${code}`
  return {
    ...metadata,
    openGraph: { ...metadata.openGraph, images: [{ url: image, width: 1200, height: 630 }] },
    twitter: { ...metadata.twitter, images: [image] },
  }
}

export default async function WaitlistReferralPreview({ params }: Params) {
  const language = await routeLanguage(params)
  const { code } = await params
  const page = await getWaitlistPage(language)
  if (!page || !isReferralCode(code)) notFound()
  return <WaitlistPageView page={page} />
}
