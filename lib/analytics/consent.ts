/**
 * The visitor's analytics choice. Until they choose, nothing is tracked and nothing is
 * stored but this choice itself (which is a functional record, not tracking). A browser
 * that sends Global Privacy Control or Do Not Track has chosen already: decline.
 */
export type ConsentChoice = 'granted' | 'denied'
export type ConsentState = ConsentChoice | 'unset'

export const CONSENT_STORAGE_KEY = 'consent:analytics'
const CHANGE_EVENT = 'consent:change'
const OPEN_SETTINGS_EVENT = 'consent:open-settings'

type PrivacyNavigator = Navigator & { globalPrivacyControl?: boolean; msDoNotTrack?: string }

/** True when the browser itself asks not to be tracked. */
export function browserRefusesTracking(nav: PrivacyNavigator | undefined = typeof navigator === 'undefined' ? undefined : navigator): boolean {
  if (!nav) return false
  const dnt = nav.doNotTrack ?? nav.msDoNotTrack ?? (typeof window !== 'undefined' ? (window as Window & { doNotTrack?: string }).doNotTrack : undefined)
  return nav.globalPrivacyControl === true || dnt === '1' || dnt === 'yes'
}

export function readConsent(): ConsentState {
  if (browserRefusesTracking()) return 'denied'
  try {
    const stored = window.localStorage.getItem(CONSENT_STORAGE_KEY)
    return stored === 'granted' || stored === 'denied' ? stored : 'unset'
  } catch {
    // Storage blocked: ask every visit rather than assume.
    return 'unset'
  }
}

export function writeConsent(choice: ConsentChoice): void {
  try {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, choice)
  } catch {
    // The choice still holds for this page view.
  }
  window.dispatchEvent(new CustomEvent<ConsentChoice>(CHANGE_EVENT, { detail: choice }))
}

/** Calls back on every choice, in this tab or (through storage events) another one. */
export function onConsentChange(listener: (choice: ConsentChoice) => void): () => void {
  const handler = (event: Event) => listener((event as CustomEvent<ConsentChoice>).detail)
  const fromOtherTab = (event: StorageEvent) => {
    if (event.key === CONSENT_STORAGE_KEY && (event.newValue === 'granted' || event.newValue === 'denied')) listener(event.newValue)
  }
  window.addEventListener(CHANGE_EVENT, handler)
  window.addEventListener('storage', fromOtherTab)
  return () => {
    window.removeEventListener(CHANGE_EVENT, handler)
    window.removeEventListener('storage', fromOtherTab)
  }
}

/** The footer's "Cookie settings" asks the banner to show again. */
export function openConsentSettings(): void {
  window.dispatchEvent(new Event(OPEN_SETTINGS_EVENT))
}

export function onOpenConsentSettings(listener: () => void): () => void {
  window.addEventListener(OPEN_SETTINGS_EVENT, listener)
  return () => window.removeEventListener(OPEN_SETTINGS_EVENT, listener)
}
