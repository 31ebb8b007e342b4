import { DEFAULT_LANGUAGE } from '../i18n/languages'

/**
 * Which requests are served without running proxy.ts (docs/engineers.md, "Requests the proxy
 * skips"): a browser's first, cookie-less GET navigation to one of English's fixed pages. Nothing
 * the proxy decides can concern such a request: the Studio refuses a redirect from these addresses
 * (lib/content/paths.ts, redirectSourceProblem) and cannot delete or unpublish their documents
 * (sanity.config.ts, SINGLETON_TYPES), an experiment takes no one without `consent=granted`, a
 * draft needs `__prerender_bypass`, a twin needs `.md` or an Accept naming Markdown, and a campaign
 * version needs `utm_campaign` in the address.
 *
 * proxy.ts's `config.matcher` must be a literal Next reads at build, so it spells out the
 * complement of what is here; tests/unit/proxy-matcher.test.ts fails when the two drift, and when
 * a route under app/(site)/[lang] is neither one of these nor known to go through the proxy.
 */

/**
 * English's fixed pages, as a path-to-regexp source: only English, whose addresses are known to
 * the code. Another language is content (a language's pages answer where they are translated), so
 * its addresses always go through the proxy, which answers the one static 404 where they are not.
 */
export const SKIPPABLE_SOURCE = '/(|about|blog|changelog|search|waitlist|waitlist/confirm|waitlist/unsubscribe|waitlist/leaderboard)'

/** The same addresses as paths, and the route each renders (English's rewrite to /en/…). */
export const SKIPPABLE_PATHS = [
  '/',
  '/about',
  '/blog',
  '/changelog',
  '/search',
  '/waitlist',
  '/waitlist/confirm',
  '/waitlist/unsubscribe',
  '/waitlist/leaderboard',
] as const

type Condition = { type: 'header' | 'cookie' | 'query'; key: string; value?: string }

/**
 * What a request must have (all of it) and must not have (none of it) to skip the proxy. The
 * values are regular expressions Next anchors at both ends.
 */
export const SKIP_WHEN: { has: Condition[]; missing: Condition[] } = {
  // A browser's top-level navigation: curl, crawlers, load tools and fetches go through the proxy.
  has: [{ type: 'header', key: 'sec-fetch-dest', value: 'document' }],
  missing: [
    // A form's POST navigation says what it sends; a GET has no body.
    { type: 'header', key: 'content-type' },
    // The only visitors an experiment takes (components/variants/participation.ts, mayTakePart).
    { type: 'cookie', key: 'consent', value: 'granted' },
    // Any draft-mode cookie, valid or not: the proxy tells them apart (lib/http/preview-mode.ts).
    { type: 'cookie', key: '__prerender_bypass' },
    // An Accept that so much as names Markdown, in any case: the proxy negotiates it.
    { type: 'header', key: 'accept', value: '.*[Mm][Aa][Rr][Kk][Dd][Oo][Ww][Nn].*' },
    // An address naming a campaign: the proxy shows that campaign's versions (sanity/variants/live-campaigns.ts).
    { type: 'query', key: 'utm_campaign' },
  ],
}

/**
 * What a skipped answer says a shared cache must key on, whatever this page's experiments and twin:
 * the proxy is not there to say `Vary: Cookie` only where an experiment varies the page, so every
 * skipped answer says it (lib/http/vary.ts keeps it beside Next's own tokens).
 */
export const SKIPPED_VARY = 'Accept, Cookie'

/** next.config.ts `headers()`: `Vary` on exactly the requests the matcher lets through. */
export const skippedHeaders = () => [{ source: SKIPPABLE_SOURCE, ...SKIP_WHEN, headers: [{ key: 'Vary', value: SKIPPED_VARY }] }]

/**
 * next.config.ts `rewrites()`: English's fixed pages render under /en/… when the proxy did not
 * rewrite them there. When it ran it has already rewritten every English address (to /en/…, a
 * variant page, a twin or the 404), and rewrites after the proxy match the path it rewrote to,
 * which never is one of these.
 */
export const skippedRewrites = () => SKIPPABLE_PATHS.map((path) => ({ source: path, destination: `/${DEFAULT_LANGUAGE}${path === '/' ? '' : path}` }))
