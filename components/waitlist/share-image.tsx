import { getWaitlistPage } from '@/sanity/content'
import { drawShareImage } from '@/components/seo/share-image'
import { fillTemplate } from '@/components/waitlist/template'

/** At most this many characters of a chosen name are drawn (the leaderboard's nickname rule is stricter). */
const NAME_MAX = 40

/**
 * A chosen display name as the image may draw it: composed (NFC), no control, format or direction
 * characters (a right-to-left override would reorder the headline; the zero-width joiner stays,
 * it holds an emoji such as a family together), spaces collapsed, cut at
 * NAME_MAX graphemes; null when nothing is left. Satori draws text as shapes, so markup in a name
 * is drawn as its characters and never read as markup.
 */
export function cleanDisplayName(name: string | null | undefined): string | null {
  if (!name) return null
  const clean = name
    .normalize('NFC')
    .replace(/(?!\u200d)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/\s+/gu, ' ')
    .trim()
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(clean)].map((part) => part.segment)
  const cut = graphemes.slice(0, NAME_MAX).join('').trim()
  return cut || null
}

/**
 * The headline of a referral link's share image: the waitlist page's own headline, which names
 * nobody, unless a display name is given (a person who opted in to the leaderboard): then the
 * marketers' `shareImageNamed` with it.
 */
export function referralShareHeadline(words: { title: string; shareImageNamed: string }, displayName: string | null): string {
  const name = cleanDisplayName(displayName)
  return name ? fillTemplate(words.shareImageNamed, { name }) : words.title
}

/** The share image of `/waitlist?ref=<code>` in a language; null where the waitlist page is not in it. */
export async function drawReferralShareImage(language: string, displayName: string | null): Promise<Response | null> {
  const page = await getWaitlistPage(language)
  if (!page) return null
  return drawShareImage(referralShareHeadline({ title: page.title, shareImageNamed: page.placePanel.shareImageNamed }, displayName), language)
}
