/**
 * The visitor's analytics choice. Until they choose, nothing is tracked and nothing is
 * stored but this choice itself (which is a functional record, not tracking). A browser
 * that sends Global Privacy Control or Do Not Track has chosen already: decline.
 */
import { islandEvent } from '@/lib/island-event'
import { writeConsentCookie } from './consent-cookie'

export type ConsentChoice = 'granted' | 'denied'
export type ConsentState = ConsentChoice | 'unset'

export const CONSENT_STORAGE_KEY = 'consent:analytics'
const consentChanged = islandEvent<ConsentChoice>('consent:change')
// The footer's "Cookie settings" asks the banner to show again.
const consentSettingsOpened = islandEvent('consent:open-settings')

type PrivacyWindow = Window & { doNotTrack?: string; navigator: Navigator & { globalPrivacyControl?: boolean; msDoNotTrack?: string } }

// These two functions name nothing outside themselves (no imports, no module constants): they
// also run, serialised, as the inline script that hides the server-rendered banner before the
// first paint (consentBootScript), and must agree with what the banner decides after hydration.

/** True when the browser itself asks not to be tracked. */
export function browserRefusesTracking(win: PrivacyWindow | undefined = typeof window === 'undefined' ? undefined : (window as PrivacyWindow)): boolean {
  if (!win) return false
  const nav = win.navigator
  const dnt = nav.doNotTrack ?? nav.msDoNotTrack ?? win.doNotTrack
  return nav.globalPrivacyControl === true || dnt === '1' || dnt === 'yes'
}

/** The visitor's choice as stored in `win`, under `key`. */
export function consentIn(win: PrivacyWindow, key: string, refuses: (win: PrivacyWindow) => boolean): ConsentState {
  if (refuses(win)) return 'denied'
  try {
    const stored = win.localStorage.getItem(key)
    return stored === 'granted' || stored === 'denied' ? stored : 'unset'
  } catch {
    // Storage blocked: ask every visit rather than assume.
    return 'unset'
  }
}

export function readConsent(): ConsentState {
  return consentIn(window as PrivacyWindow, CONSENT_STORAGE_KEY, browserRefusesTracking)
}

/** Marks `<html>` when the visitor has chosen, so CSS hides the banner before the first paint. */
export const CONSENT_CHOSEN_ATTRIBUTE = 'data-consent-chosen'
/** On the banner; `reopened` when the footer's cookie settings asked for it (then it shows anyway). */
export const CONSENT_BANNER_ATTRIBUTE = 'data-consent-banner'

/**
 * The banner is in the server's HTML, so it paints with the first words instead of after the
 * scripts (on a page of short text it was the largest paint, and it waited for hydration). A
 * visitor who has chosen must not see it flash: this runs as the body reaches the banner,
 * before any paint that could show it.
 */
export function consentBootScript(): string {
  const state = `(${consentIn.toString()})(window,${JSON.stringify(CONSENT_STORAGE_KEY)},${browserRefusesTracking.toString()})`
  return `try{if(${state}!=="unset")document.documentElement.setAttribute(${JSON.stringify(CONSENT_CHOSEN_ATTRIBUTE)},"")}catch(e){}`
}

/**
 * Records the choice, with the cookie the server reads (./consent-cookie.ts) written at once: the
 * visitor may open the next page the moment the banner closes.
 */
export function writeConsent(choice: ConsentChoice): void {
  try {
    window.localStorage.setItem(CONSENT_STORAGE_KEY, choice)
  } catch {
    // The choice still holds for this page view.
  }
  writeConsentCookie(choice)
  consentChanged.emit(choice)
}

/** Calls back on every choice, in this tab or (through storage events) another one. */
export function onConsentChange(listener: (choice: ConsentChoice) => void): () => void {
  const fromOtherTab = (event: StorageEvent) => {
    if (event.key === CONSENT_STORAGE_KEY && (event.newValue === 'granted' || event.newValue === 'denied')) listener(event.newValue)
  }
  const off = consentChanged.on(listener)
  window.addEventListener('storage', fromOtherTab)
  return () => {
    off()
    window.removeEventListener('storage', fromOtherTab)
  }
}

export const openConsentSettings = (): void => consentSettingsOpened.emit()
export const onOpenConsentSettings = (listener: () => void): (() => void) => consentSettingsOpened.on(listener)
