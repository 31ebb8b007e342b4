import { publicEnv } from '@/lib/env'
import { getSiteLanguages } from '@/sanity/content'
import { referralLink } from '@/components/waitlist/link'
import { isReferralCode } from '@/components/waitlist/share'
import { referralQrSvg } from '@/components/waitlist/referral-qr'

// The QR code of a person's referral link, as SVG, for the own page's <img>: the page is a client
// island that learns the code from the token, so the server draws the code on request and no QR
// library is in any page's JavaScript. The link is on the site's own address (NEXT_PUBLIC_SITE_URL)
// and the SVG depends on nothing else, so each answer is kept for good, like the share images.
export const dynamic = 'force-static'

export function generateStaticParams() {
  return []
}

export async function GET(_request: Request, { params }: { params: Promise<{ lang: string; code: string }> }) {
  const { lang, code } = await params
  // Only a code of the shape the database mints, in a language the site has: nothing else is drawn.
  if (!isReferralCode(code) || !(await getSiteLanguages()).some((language) => language.code === lang)) return new Response('Not found', { status: 404 })
  const svg = await referralQrSvg(referralLink(publicEnv.siteUrl, code, lang))
  return new Response(svg, {
    headers: {
      'content-type': 'image/svg+xml; charset=utf-8',
      'cache-control': process.env.NODE_ENV === 'development' ? 'no-cache, no-store' : 'public, immutable, max-age=31536000',
      // An SVG opened on its own could run script: this one has none, and may not.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'x-content-type-options': 'nosniff',
    },
  })
}
