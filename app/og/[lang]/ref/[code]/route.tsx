import { getSiteLanguages } from '@/sanity/content'
import { isReferralCode } from '@/components/waitlist/share'
import { shareDisplayName } from '@/components/waitlist/share-name'
import { drawReferralShareImage } from '@/components/waitlist/share-image'

// The share image of one person's referral link (`/waitlist?ref=<code>`), drawn on its first
// request and then served from the cache for a minute: the name it may carry follows the
// leaderboard's opt-in, which is refreshed within a minute too, so an opt-out stops showing the
// name as soon as the leaderboard drops it. No code is drawn at build (there are a million).
// Why a route and not the waitlist page's metadata: the page is static HTML, one per language,
// and a `?ref=` cannot change its `og:image` without rendering it for every visit; see
// docs/engineers.md, "A referral, from a shared link…".
export const dynamic = 'force-static'
export const revalidate = 60

export function generateStaticParams() {
  return []
}

export async function GET(_request: Request, { params }: { params: Promise<{ lang: string; code: string }> }) {
  const { lang, code } = await params
  // A code of another shape was never minted: refused before any lookup or drawing.
  if (!isReferralCode(code) || !(await getSiteLanguages()).some((language) => language.code === lang)) return new Response('Not found', { status: 404 })
  const image = await drawReferralShareImage(lang, await shareDisplayName(code))
  if (!image) return new Response('Not found', { status: 404 })
  const headers = new Headers(image.headers)
  // Not drawShareImage's year-long immutable: the name may go (see above).
  headers.set('cache-control', 'public, max-age=60, s-maxage=60, stale-while-revalidate=60')
  return new Response(image.body, { status: 200, headers })
}
