import { localizePath } from '@/lib/i18n/languages'
import { publicEnv } from '@/lib/env'
import { twinMarkdown } from './twin'

/**
 * A twin's answer: Markdown, or a 404 (the proxy answers unknown addresses before this; this is
 * for a page unpublished moments ago on another server). `Vary: Accept` because the page's own
 * address answers this too when the request prefers Markdown (proxy.ts), and a cache must not
 * give it to a browser; the HTML page is named as the canonical address. The twin of a page hidden
 * from search engines is served, as its page is, but says `noindex` as its page does (the page in
 * its robots meta tag, a text file only in `X-Robots-Tag`); llms.txt leaves it out.
 */
export async function twinResponse(language: string, path: string): Promise<Response> {
  const twin = await twinMarkdown(language, path)
  if (twin === null) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  const page = new URL(localizePath(path, language), publicEnv.siteUrl).href
  return new Response(`${twin.markdown}\n`, {
    headers: {
      'Content-Type': 'text/markdown; charset=utf-8',
      Vary: 'Accept',
      Link: `<${page}>; rel="canonical"`,
      ...(twin.noindex ? { 'X-Robots-Tag': 'noindex' } : {}),
    },
  })
}
