/**
 * Prerendered pages (Speculation Rules, components/site/speculation-rules.tsx): Chromium may load
 * and run the page a visitor is about to open before they open it. Until it is shown it must do
 * nothing a visit does (no event, no storage, no cookie): what only a shown page may do waits here.
 * Browsers without prerendering have no `document.prerendering`, and everything runs at once.
 */

/** Marks a link the site's speculation rules may prerender (same-origin pages only). */
export const PRERENDER_ATTRIBUTE = 'data-prerender'

/** Spread onto an `<a>` that leads to a page worth having ready (a call to action, the navigation). */
export const prerenderOn = { [PRERENDER_ATTRIBUTE]: '' } as const

/** True while this page is being prerendered: loaded and running, not shown. */
export function isPrerendering(): boolean {
  return typeof document !== 'undefined' && (document as Document & { prerendering?: boolean }).prerendering === true
}

/** Calls `listener` when this prerendered page is shown; never when it was shown already. */
export function onShown(listener: () => void): () => void {
  if (!isPrerendering()) return () => {}
  document.addEventListener('prerenderingchange', listener, { once: true })
  return () => document.removeEventListener('prerenderingchange', listener)
}

/** Runs `act` once the page is shown: now, or when the prerendered page is activated. Returns its cancel. */
export function whenShown(act: () => void): () => void {
  if (!isPrerendering()) {
    act()
    return () => {}
  }
  return onShown(act)
}

/**
 * Starts the page's speculations over: a prerender made before a change the server reads (the
 * consent cookie decides an experiment's variant) is discarded, and the next hover makes a new
 * one. Chromium cancels the speculations of a removed rule set, but only once it has looked at the
 * page's rules again (after the current task): a copy put back in the same task would keep the old
 * prerender. So the copy goes back in a later task.
 */
export function restartSpeculations(): void {
  for (const rules of document.querySelectorAll('script[type="speculationrules"]')) {
    const place = { parent: rules.parentNode, next: rules.nextSibling }
    const text = rules.textContent
    rules.remove()
    setTimeout(() => {
      const fresh = document.createElement('script')
      fresh.type = 'speculationrules'
      fresh.textContent = text
      place.parent?.insertBefore(fresh, place.next)
    }, 0)
  }
}
