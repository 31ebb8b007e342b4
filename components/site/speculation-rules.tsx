import { PRERENDER_ATTRIBUTE } from '@/lib/prerender'

/**
 * The page a visitor is about to open, prerendered before the click (Chromium's Speculation Rules):
 * only links marked with `prerenderOn` (the calls to action to the waitlist, the navigation, the
 * logo), only on this site (`href_matches` is relative to the page), and with `moderate` eagerness:
 * after a hover of 200 ms or a pointerdown. Enough head start for a page that is static HTML, and no
 * prerender for every link merely scrolled past, on a phone's data plan or our servers. `immediate`
 * would load /waitlist for every visitor of every page, most of whom never open it.
 *
 * What a prerendered page may not do before it is shown waits in lib/prerender.ts; proxy.ts writes
 * no cookie for it. Browsers without the API ignore the script's type: they lose nothing.
 */
export const SPECULATION_RULES = JSON.stringify({
  prerender: [{ where: { and: [{ href_matches: '/*' }, { selector_matches: `a[${PRERENDER_ATTRIBUTE}]` }] }, eagerness: 'moderate' }],
})

export function SpeculationRules() {
  // In a wrapper of its own: restartSpeculations() (lib/prerender.ts) swaps the script for a fresh
  // copy, and React, which placed the script, would otherwise insert later islands (the demo's
  // dialog) before the node it remembers, gone by then, and fail.
  return (
    <div hidden>
      <script type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
    </div>
  )
}
