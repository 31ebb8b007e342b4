import { PRIVATE_NO_STORE } from './cache-control'

/**
 * A request Chromium makes for a page the visitor has not opened yet (a prerender or prefetch of
 * the speculation rules, components/site/speculation-rules.tsx): `Sec-Purpose: prefetch;prerender`
 * or `prefetch`. A browser sets it itself (a page's script cannot); a forged one only costs its
 * sender the page.
 */
export function isSpeculative(headers: Headers): boolean {
  return /^\s*prefetch\b/i.test(headers.get('sec-purpose') ?? '')
}

/**
 * The answer to a speculative request that would have to write a cookie (the first page of an
 * experiment a participant meets assigns their variant): a prerendered page writes nothing before it
 * is shown. A status other than 2xx makes Chromium drop the prerender; the click then loads the page
 * as usual, and that visit assigns. Never kept by any cache.
 */
export function declineSpeculation(): Response {
  return new Response(null, { status: 503, headers: { 'Cache-Control': PRIVATE_NO_STORE, 'Retry-After': '0' } })
}
