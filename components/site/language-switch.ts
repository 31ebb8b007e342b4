import 'server-only'
import { getSiteLanguages, type Alternate } from '@/sanity/content'
import { translationIn, translationSets } from '@/components/seo/metadata'
import { PRIVATE_NO_STORE } from '@/lib/http/cache-control'

type Sources = { languages: () => Promise<string[]>; translations: () => Promise<Alternate[][]> }

const fromContent: Sources = {
  languages: async () => (await getSiteLanguages()).map((language) => language.code),
  translations: translationSets,
}

/** The page the visitor came from: the Referer's path, when it is this site's (the host the request came to). */
function comingFrom(request: Request): string | null {
  const referer = request.headers.get('referer')
  const host = request.headers.get('host')
  if (!referer || !host) return null
  try {
    const url = new URL(referer)
    return url.host === host ? url.pathname : null
  } catch {
    return null
  }
}

/**
 * GET /api/language/<code>, the footer switcher's links: to the page the visitor is on, in that
 * language (its translation, as the head's hreflang names it), else that language's home page.
 * The server answers, so the switcher needs no JavaScript in the page and works without it; the
 * Referer names the page (same-origin navigations carry the path under the site's
 * strict-origin-when-cross-origin policy). Only the site's own addresses are ever the target.
 */
export async function switchLanguage(request: Request, code: string, sources: Sources = fromContent): Promise<Response> {
  if (!(await sources.languages()).includes(code)) return new Response('No such language.', { status: 404, headers: { 'cache-control': 'no-store' } })
  const from = comingFrom(request)
  const target = translationIn(from ? await sources.translations() : [], from ?? '/', code)
  // Each visitor's answer depends on where they came from: never shared by a cache.
  return new Response(null, { status: 303, headers: { location: target, 'cache-control': PRIVATE_NO_STORE, vary: 'referer' } })
}
