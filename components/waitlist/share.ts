/**
 * The share kit's links (issue #69): the referral link (`referralLink` in link.ts) sent on by
 * e-mail, WhatsApp, LinkedIn and X, each prefilled with the marketers' words from Sanity. Pure and
 * browser-safe: the own page's island and the confirmation e-mail build the same hrefs from here.
 *
 * Every word and the link are passed through URLSearchParams or encodeURIComponent, never pasted
 * into a URL, so a word with `&`, `#`, `?`, markup or any Unicode stays text inside its parameter
 * and cannot add a parameter, end the href or point it elsewhere. The link must be on the site's
 * own origin with the waitlist's path and a `ref`: anything else throws, so a kit never sends
 * people anywhere but to us.
 */

export type ShareWords = {
  /** The text sent with the link (plain text by the Studio's rule). */
  text: string
  /** The subject of the e-mail the mailto link opens. */
  subject: string
}

export type ShareLinks = { email: string; whatsapp: string; linkedin: string; x: string }

/** Throws unless `link` is a referral link on `origin`: `/<lang>/waitlist?ref=<code>` (or `/waitlist?ref=` in the default language). */
export function assertReferralLink(link: string, origin: string): URL {
  const url = new URL(link)
  if (url.origin !== new URL(origin).origin) throw new Error('The referral link is not on this site.')
  if (!/^(\/[a-z]{2}(-[a-z]{2})?)?\/waitlist$/.test(url.pathname) || !url.searchParams.get('ref')) throw new Error('Not a referral link.')
  return url
}

/** The text and the link as one message, the link last and on its own line (apps turn it into a link there). */
export function shareMessage(words: ShareWords, link: string): string {
  return `${words.text.trim()}\n${link}`
}

/** The four share links for a referral link; `origin` is the site's own (window.location.origin, or NEXT_PUBLIC_SITE_URL in an e-mail). */
export function shareLinks(link: string, words: ShareWords, origin: string): ShareLinks {
  const url = assertReferralLink(link, origin).toString()
  const message = shareMessage(words, url)
  // mailto: RFC 6068 wants percent-encoding, and URLSearchParams would write a space as "+",
  // which mail programs show as a plus sign.
  const email = `mailto:?subject=${encodeURIComponent(words.subject.trim())}&body=${encodeURIComponent(message)}`
  return {
    email,
    // wa.me's documented form: the whole message in `text`.
    whatsapp: `https://wa.me/?${new URLSearchParams({ text: message })}`,
    // LinkedIn's share-offsite takes only the URL; it reads the words from the page's Open Graph tags.
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?${new URLSearchParams({ url })}`,
    x: `https://x.com/intent/post?${new URLSearchParams({ text: words.text.trim(), url })}`,
  }
}

/** A referral code as the database mints it (`waitlist_referral_code_format`, supabase/schemas/02_waitlist.sql). */
export const isReferralCode = (value: string) => /^[A-Za-z0-9_-]{22}$/.test(value)

/** Where the QR code of a person's referral link is drawn, as SVG on the server (app/og/[lang]/qr/[code]/route.ts). */
export const referralQrPath = (code: string, language: string) => `/og/${encodeURIComponent(language)}/qr/${encodeURIComponent(code)}`

/** The share image of a person's referral link (app/og/[lang]/ref/[code]/route.tsx). */
export const referralShareImagePath = (code: string, language: string) => `/og/${encodeURIComponent(language)}/ref/${encodeURIComponent(code)}`
