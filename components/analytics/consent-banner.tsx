'use client'

import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useAfterHydration } from '@/lib/after-hydration'
import { onShown } from '@/lib/prerender'
import {
  browserRefusesTracking,
  CONSENT_BANNER_ATTRIBUTE,
  onConsentChange,
  onOpenConsentSettings,
  readConsent,
  writeConsent,
  type ConsentChoice,
} from '@/components/analytics/consent'
import type { ConsentButtonLooks } from './consent-buttons'
import { TrailingLink } from '@/components/ui/trailing-link'
import type { SiteLink } from '@/sanity/content/types'

export type ConsentCopy = { title: string; text: string; acceptLabel: string; declineLabel: string; browserRefusesNote: string; policyLink: SiteLink }

// The server cannot know the visitor's choice: it renders the banner, which paints with the
// page's first words, and consentBootScript() hides it before paint for a visitor who chose.
const serverSnapshot = () => 'unset' as const
// A prerendered page read the choice when it was made, maybe before the visitor chose on the page
// they were on: read again when it is shown (lib/prerender.ts).
function onConsentOrShown(listener: () => void): () => void {
  const offConsent = onConsentChange(listener)
  const offShown = onShown(listener)
  return () => {
    offConsent()
    offShown()
  }
}
// Its buttons work only once React runs: until then they are disabled, so a press before the
// scripts arrive is visibly refused rather than silently lost (a choice made then would not reach
// the analytics island, and the click after it would go untracked).

/**
 * Asks once, remembers the answer, and comes back when the footer's cookie settings ask
 * for it. Fixed to the bottom of the viewport so showing it shifts no content.
 */
export function ConsentBanner({ copy, looks }: { copy: ConsentCopy; looks: ConsentButtonLooks }) {
  const consent = useSyncExternalStore(onConsentOrShown, readConsent, serverSnapshot)
  const interactive = useAfterHydration(() => true, false)
  const [reopened, setReopened] = useState(false)
  const headingRef = useRef<HTMLHeadingElement>(null)
  const returnFocus = useRef<Element | null>(null)

  useEffect(
    () =>
      onOpenConsentSettings(() => {
        returnFocus.current = document.activeElement
        setReopened(true)
        requestAnimationFrame(() => headingRef.current?.focus())
      }),
    [],
  )

  // Read during hydration, a GPC or DNT browser drew another banner than the server's, and React
  // redrew the whole page, wiping what the visitor had typed (e2e/experiments-data.spec.ts).
  const refused = useAfterHydration(browserRefusesTracking, false)
  if (consent !== 'unset' && !reopened) return null

  const choose = (choice: ConsentChoice) => {
    writeConsent(choice)
    setReopened(false)
    if (returnFocus.current instanceof HTMLElement) returnFocus.current.focus()
  }

  return (
    <section
      {...{ [CONSENT_BANNER_ATTRIBUTE]: reopened ? 'reopened' : '' }}
      aria-labelledby="consent-title"
      className="fixed inset-x-4 bottom-4 z-50 mx-auto max-w-xl rounded-2xl border border-slate-200 bg-white p-5 shadow-2xl sm:left-4 sm:right-auto"
    >
      <h2 id="consent-title" ref={headingRef} tabIndex={-1} className="font-semibold text-slate-900 focus:outline-none">
        {copy.title}
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        {refused ? copy.browserRefusesNote : copy.text}
        <TrailingLink link={copy.policyLink} />
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        {refused ? null : (
          <button type="button" disabled={!interactive} onClick={() => choose('granted')} className={looks.primary}>
            {copy.acceptLabel}
          </button>
        )}
        <button type="button" disabled={!interactive} onClick={() => choose('denied')} className={refused ? looks.primary : looks.secondary}>
          {copy.declineLabel}
        </button>
      </div>
    </section>
  )
}
