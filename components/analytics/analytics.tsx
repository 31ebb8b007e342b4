'use client'

import { usePathname } from 'next/navigation'
import { useEffect } from 'react'
import { analyticsConfigured, stopTracking, track, trackingReady } from '@/components/analytics/client'
import { onConsentChange } from '@/components/analytics/consent'
import { parseTrackAttribute, TRACK_ATTRIBUTE } from '@/components/analytics/events'
import { isPrerendering, restartSpeculations, whenShown } from '@/lib/prerender'
import { ConsentBanner, type ConsentCopy } from './consent-banner'
import type { ConsentButtonLooks } from './consent-buttons'

const MAX_NAVIGATION_HOLD_MS = 500

/** A plain left click on a web link that opens in this tab. */
function replacesPage(event: MouseEvent, link: HTMLAnchorElement): boolean {
  const modified = event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey
  return !modified && !event.defaultPrevented && (!link.target || link.target === '_self') && !link.hasAttribute('download') && /^https?:$/.test(link.protocol)
}

/**
 * The site's one analytics island: a page view per route (client navigations and the
 * 404 included), one delegated listener for every element marked with `trackOn()`, and
 * the consent banner.
 */
export function Analytics({ copy, looks, locale }: { copy: ConsentCopy; looks: ConsentButtonLooks; locale: string }) {
  const pathname = usePathname()

  // A prerendered page is viewed when it is shown, not when it is loaded (lib/prerender.ts).
  useEffect(() => whenShown(() => void track('page_view', { page: pathname, locale })), [pathname, locale])

  useEffect(
    () =>
      onConsentChange((choice) => {
        // The next page, if prerendered already, was made with the cookie before this choice: an
        // experiment's variant depends on it. Made again on the next hover.
        restartSpeculations()
        // A prerendered page hears a choice made elsewhere (storage events): it has sent and stored
        // nothing, and counts its own view, with the choice then, when it is shown.
        if (isPrerendering()) return
        // Accepting on a page counts that page as viewed.
        if (choice === 'granted') track('page_view', { page: window.location.pathname, locale })
        else void stopTracking()
      }),
    [locale],
  )

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const element = (event.target as Element | null)?.closest?.(`[${TRACK_ATTRIBUTE}]`)
      const tracked = parseTrackAttribute(element?.getAttribute(TRACK_ATTRIBUTE) ?? null)
      if (!tracked) return
      const sent = track(tracked.event, tracked.properties as never)
      // A link that replaces this page before PostHog has loaded would take the click's event
      // with it: hold the navigation until the event is sent, for half a second at most.
      if (sent && !trackingReady() && element instanceof HTMLAnchorElement && replacesPage(event, element)) {
        event.preventDefault()
        const go = () => window.location.assign(element.href)
        void Promise.race([sent, new Promise((resolve) => setTimeout(resolve, MAX_NAVIGATION_HOLD_MS))]).then(go, go)
      }
    }
    document.addEventListener('click', onClick, { capture: true })
    return () => document.removeEventListener('click', onClick, { capture: true })
  }, [])

  return analyticsConfigured ? <ConsentBanner copy={copy} looks={looks} /> : null
}
