import { NextResponse, type NextRequest } from 'next/server'
import { addresses, addressOf, answerFor } from '@/sanity/content/addresses'
import { notFoundRouteFor, redirectLocation, TWIN_ROUTE_SEGMENT, twinRoute } from '@/lib/content/paths'
import { DEFAULT_LANGUAGE, isLanguageCode, isLocalizedPath, splitLanguage, unprefixedPath } from '@/lib/i18n/languages'
import { methodNotAllowed, refusedMethod } from '@/lib/http/methods'
import { isDraftSession } from '@/lib/http/preview-mode'
import { declineSpeculation, isSpeculative } from '@/lib/http/speculative'
import { PRIVATE_NO_STORE } from '@/lib/http/cache-control'
import { experimentsOn, setExperimentsCookie } from '@/components/variants/participation'
import { campaignVersionsFor } from '@/sanity/variants/live-campaigns'
import { isbot } from 'isbot'
import { isReferralCode } from '@/components/waitlist/share'

const notFoundSegment = notFoundRouteFor('/', DEFAULT_LANGUAGE).split('/')[2]

/**
 * Every page of the site is looked up here first (sanity/content/addresses.ts), in its language,
 * but for a browser's first visit to one of English's fixed pages, which nothing here concerns
 * (docs/engineers.md, "Requests the proxy skips"): a published redirect is answered at once (one
 * `Location`, cached or not), a published page goes on to its route under app/(site)/[lang]
 * (English's unprefixed addresses rewritten to /en/…, which is never an address of its own), and
 * anything else is rewritten to the 404 of its language, with status 404, so its words are in the
 * server's HTML. The 404 is one static page per language however many addresses ask for it: random
 * addresses add nothing to any cache. A page's Markdown twin (`<path>.md`, or the page's address
 * when the request prefers text/markdown) is rewritten to its route under /<lang>/md. No redirect
 * on Accept-Language: an address always answers the same language, for caches and crawlers alike.
 */
export async function proxy(request: NextRequest) {
  const response = await answer(request)
  // A test server's witness that the proxy ran for a request (e2e/methods.spec.ts): a skipped one
  // leaves no other trace in its answer.
  if (TRACE) response.headers.set('x-proxy-ran', '1')
  return response
}

/** Set for a test server only: see above. */
const TRACE = process.env.PROXY_TRACE === '1'

async function answer(request: NextRequest): Promise<Response> {
  const { pathname } = request.nextUrl
  // A page is only read (the site has no Server Actions): Next would render it for a PUT or a
  // PROPFIND. On any host; a Node server of ours already refused these (lib/http/method-guard.ts).
  const refused = refusedMethod(request.method, pathname)
  if (refused) return methodNotAllowed(refused)
  if (!isLocalizedPath(pathname)) return NextResponse.next()
  const first = pathname.split('/')[1] ?? ''
  // English has no prefix: /en/about is /about, said once (with the query it was asked with).
  const unprefixed = unprefixedPath(pathname)
  if (unprefixed !== null) return redirectTo(request, unprefixed, true, DEFAULT_LANGUAGE)
  let known
  try {
    known = await addresses()
  } catch (error) {
    // The routes read the same content through Next's cache and answer as before.
    console.error(`[content] Could not load the published addresses: ${(error as Error).message}`)
    return isLanguageCode(first) ? NextResponse.next() : rewrite(request, `/${DEFAULT_LANGUAGE}${pathname}`)
  }
  const { language, path } = splitLanguage(pathname, known.languages)
  // The routes that draw the 404s and the twins are reached only through this proxy's rewrites.
  if ([notFoundSegment, TWIN_ROUTE_SEGMENT].includes(path.split('/')[1] ?? '')) return notFound(request, language)
  const answer = answerFor(known, pathname, request.headers.get('accept'))
  if (answer.kind === 'redirect') return redirectTo(request, answer.destination, answer.permanent, language)
  // An address whose answer depends on the request says so (Accept for a twin, Cookie for a page an
  // experiment varies, User-Agent for one a campaign does), so no cache in front of the site mixes the answers.
  const varies = 'negotiated' in answer && answer.negotiated ? ['Accept'] : []
  // Only a session Next itself would show drafts to: any other cookie of that name is a visitor's.
  const draft = isDraftSession(request.cookies)
  if (answer.kind === 'markdown')
    return rewrite(request, twinRoute(language, splitLanguage(answer.path, known.languages).path), headersOf(varies, answer.negotiated || draft))
  if (answer.kind === 'page' && !draft) {
    // A link preview of a shared referral link: the waitlist page with the referral's share image
    // (app/(site)/[lang]/waitlist/ref/[code]/page.tsx). People's browsers keep the static page.
    const ref = request.nextUrl.searchParams.get('ref')
    if (path === '/waitlist' && ref && isReferralCode(ref) && isbot(request.headers.get('user-agent') ?? ''))
      return rewrite(request, `/${language}/waitlist/ref/${ref}`, headersOf([...varies, 'User-Agent'], false))
    const address = addressOf(pathname)
    // A visitor whose address names a campaign gets its versions of the page's sections
    // (sanity/variants/live-campaigns.ts); a known crawler gets the page as published, as for experiments.
    const named = campaignVersionsFor(known.campaigns.get(address), request.nextUrl.searchParams)
    const campaigns = named.length && isbot(request.headers.get('user-agent') ?? '') ? [] : named
    // So an address naming a campaign answers by the user agent too: a shared cache must give
    // neither the version to a crawler nor a crawler's page to the campaign's visitors.
    if (named.length) varies.push('User-Agent')
    // A participant in an experiment on this page gets its variant page (components/variants).
    const experiments = await experimentsOn(request, language, address, campaigns)
    if (experiments.varied) varies.push('Cookie')
    const variant = experiments.rewrite
    if (variant) {
      // A prerender writes no cookie: one that would assign a variant is declined (lib/http/speculative.ts).
      if (variant.cookie !== null && isSpeculative(request.headers)) return declineSpeculation()
      // Drawn for this visitor's cookies: no shared cache keeps it. A campaign's page alone depends
      // only on the address and on not being a crawler, which `Vary: User-Agent` above says.
      const response = rewrite(request, `/${variant.segment}${path === '/' ? '' : path}`, headersOf(varies, experiments.varied))
      return variant.cookie === null ? response : setExperimentsCookie(response, variant.cookie, request.nextUrl.protocol === 'https:')
    }
  }
  // A draft session may preview a page not published yet; any other unknown address is the one
  // static 404, so forged cookies add nothing to any cache.
  if (answer.kind === 'page' || draft)
    return language === DEFAULT_LANGUAGE
      ? rewrite(request, `/${DEFAULT_LANGUAGE}${path === '/' ? '' : path}`, headersOf(varies, draft))
      : NextResponse.next(headersOf(varies, draft))
  return notFound(request, language)
}

/** One `Location`, carrying the request's query (lib/content/paths.ts redirectLocation). */
function redirectTo(request: NextRequest, destination: string, permanent: boolean, language: string): Response {
  // Checked again here, whatever the content layer let through: a path's host is always ours.
  const location = redirectLocation(destination, request.url)
  return location ? NextResponse.redirect(location, permanent ? 308 : 307) : notFound(request, language)
}

/** `Vary` on what the answer depends on (lib/http/vary.ts keeps it beside Next's); `private` when no shared cache may keep it. */
function headersOf(varies: readonly string[], privately: boolean | undefined): ResponseInit | undefined {
  const headers: Record<string, string> = {}
  if (varies.length) headers.Vary = varies.join(', ')
  if (privately) headers['Cache-Control'] = PRIVATE_NO_STORE
  return Object.keys(headers).length ? { headers } : undefined
}

function rewrite(request: NextRequest, pathname: string, init?: ResponseInit) {
  const url = request.nextUrl.clone()
  url.pathname = pathname
  return NextResponse.rewrite(url, init)
}

function notFound(request: NextRequest, language: string) {
  return rewrite(request, notFoundRouteFor(request.nextUrl.pathname, language), { status: 404 })
}

export const config = {
  // Next's own files never need a look-up, and neither do the code's API routes: they read their
  // own bodies, capped (lib/http/body.ts). A route the proxy matches has its request body buffered
  // for it (next.config.ts caps that), so the webhook, the dispatcher and /ingest stay out of it.
  // The site's own root files (robots.txt, sitemap.xml, icon.svg) are never a page, a redirect or
  // a twin either: running the proxy only to pass them on cost Next about 0.8 ms a request
  // (docs/bench.md, "The server's own cost"), and their route handlers refuse other methods
  // themselves. Neither does a browser's first, cookie-less navigation to one of English's fixed
  // pages: docs/engineers.md, "Requests the proxy skips", argues it and names what it costs.
  // Next reads this as a literal at build, so the skip is spelled out as the entries that keep
  // the proxy (any one is enough): lib/http/proxy-skip.ts holds the conditions, next.config.ts
  // answers the skipped requests from them, and tests/unit/proxy-matcher.test.ts keeps the three
  // in step.
  matcher: [
    // Every other address might be a page, a redirect, a twin or the 404.
    '/((?!_next/|api/|ingest/|robots\\.txt$|sitemap\\.xml$|icon\\.svg$|(?:about|blog|changelog|search|waitlist|waitlist/confirm|waitlist/unsubscribe|waitlist/leaderboard)?$).*)',
    // English's fixed pages, unless the request is a cookie-less browser navigation asking for HTML.
    {
      source: '/(|about|blog|changelog|search|waitlist|waitlist/confirm|waitlist/unsubscribe|waitlist/leaderboard)',
      missing: [{ type: 'header', key: 'sec-fetch-dest', value: 'document' }],
    },
    {
      source: '/(|about|blog|changelog|search|waitlist|waitlist/confirm|waitlist/unsubscribe|waitlist/leaderboard)',
      has: [{ type: 'header', key: 'content-type' }],
    },
    {
      source: '/(|about|blog|changelog|search|waitlist|waitlist/confirm|waitlist/unsubscribe|waitlist/leaderboard)',
      has: [{ type: 'cookie', key: 'consent', value: 'granted' }],
    },
    {
      source: '/(|about|blog|changelog|search|waitlist|waitlist/confirm|waitlist/unsubscribe|waitlist/leaderboard)',
      has: [{ type: 'cookie', key: '__prerender_bypass' }],
    },
    {
      source: '/(|about|blog|changelog|search|waitlist|waitlist/confirm|waitlist/unsubscribe|waitlist/leaderboard)',
      has: [{ type: 'header', key: 'accept', value: '.*[Mm][Aa][Rr][Kk][Dd][Oo][Ww][Nn].*' }],
    },
    // A campaign's address: its version of the page (sanity/variants/live-campaigns.ts).
    {
      source: '/(|about|blog|changelog|search|waitlist|waitlist/confirm|waitlist/unsubscribe|waitlist/leaderboard)',
      has: [{ type: 'query', key: 'utm_campaign' }],
    },
  ],
}
