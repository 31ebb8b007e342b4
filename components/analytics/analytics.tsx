'use client'

import { usePathname } from 'next/navigation'
import { useEffect } from 'react'
import { analyticsConfigured, stopTracking, track } from '@/lib/analytics/client'
import { onConsentChange } from '@/lib/analytics/consent'
import { parseTrackAttribute, TRACK_ATTRIBUTE } from '@/lib/analytics/events'
import { ConsentBanner, type ConsentCopy } from './consent-banner'

/**
 * The site's one analytics island: a page view per route (client navigations and the
 * 404 included), one delegated listener for every element marked with `trackOn()`, and
 * the consent banner.
 */
export function Analytics({ copy }: { copy: ConsentCopy }) {
  const pathname = usePathname()

  useEffect(() => {
    track('page_view', { page: pathname })
  }, [pathname])

  useEffect(
    () =>
      onConsentChange((choice) => {
        // Accepting on a page counts that page as viewed.
        if (choice === 'granted') track('page_view', { page: window.location.pathname })
        else void stopTracking()
      }),
    [],
  )

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const element = (event.target as Element | null)?.closest?.(`[${TRACK_ATTRIBUTE}]`)
      const tracked = parseTrackAttribute(element?.getAttribute(TRACK_ATTRIBUTE) ?? null)
      if (tracked) track(tracked.event, tracked.properties as never)
    }
    document.addEventListener('click', onClick, { capture: true })
    return () => document.removeEventListener('click', onClick, { capture: true })
  }, [])

  return analyticsConfigured ? <ConsentBanner copy={copy} /> : null
}
