import { NextResponse, type NextRequest } from 'next/server'
import { addresses, answerFor } from '@/lib/content/addresses'
import { CONTENT_ROUTES, notFoundRouteFor, RESERVED_SEGMENTS } from '@/lib/content/paths'

// Next's draft-mode cookie: a draft preview may show a page that is not published yet, so the
// pages route decides for itself there.
const DRAFT_MODE_COOKIE = '__prerender_bypass'
// The blog's addresses are decided by the content (which posts, categories and pages of a list
// exist), so they are looked up like pages.
const codeOwned = new Set<string>(RESERVED_SEGMENTS.filter((segment) => !CONTENT_ROUTES.has(segment)))
const notFoundSegment = notFoundRouteFor('/').split('/')[1]

/**
 * Every address the pages route could answer is looked up here first (lib/content/addresses.ts):
 * a published redirect is answered at once (one `Location`, cached or not), a published page goes
 * on to the pages route, and anything else is rewritten to the 404 route with status 404, so its
 * words are in the server's HTML. The 404 is one static page however many addresses ask for it:
 * random addresses add nothing to any cache.
 */
export async function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl
  const first = pathname.split('/')[1] ?? ''
  if (first === notFoundSegment) return notFound(request)
  if (pathname === '/' || codeOwned.has(first)) return NextResponse.next()
  let known
  try {
    known = await addresses()
  } catch (error) {
    // The pages route reads the same content through Next's cache and answers as before.
    console.error(`[content] Could not load the published addresses: ${(error as Error).message}`)
    return NextResponse.next()
  }
  const answer = answerFor(known, pathname)
  if (answer.kind === 'redirect') return NextResponse.redirect(new URL(answer.destination, request.url), answer.permanent ? 308 : 307)
  if (answer.kind === 'page' || request.cookies.has(DRAFT_MODE_COOKIE)) return NextResponse.next()
  return notFound(request)
}

function notFound(request: NextRequest) {
  return NextResponse.rewrite(new URL(notFoundRouteFor(request.nextUrl.pathname), request.url), { status: 404 })
}

export const config = {
  // Next's own files never need a look-up, and neither do the code's API routes: they read their
  // own bodies, capped (lib/http/body.ts). A route the proxy matches has its request body buffered
  // for it (next.config.ts caps that), so the webhook, the dispatcher and /ingest stay out of it.
  // Everything else might be a page or a redirect.
  matcher: ['/((?!_next/|api/|ingest/).*)'],
}
