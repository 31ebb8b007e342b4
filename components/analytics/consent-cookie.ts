import { EXPERIMENTS_COOKIE } from '@/sanity/variants/assignments'

/**
 * The visitor's analytics choice as the server reads it: a first-party cookie the banner writes
 * beside its own record (localStorage), so the proxy can tell a consenting visitor from the rest
 * before any page is drawn (components/variants). Only "granted" is ever written; declining
 * removes it, and the experiments cookie with it. Listed in the Cookie Policy with its lifetime.
 */
export const CONSENT_COOKIE = 'consent'
export const CONSENT_COOKIE_GRANTED = 'granted'
/** A year: the choice is asked again after that, as the banner's record does not expire on its own. */
export const CONSENT_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 365

const attributes = () => `; Path=/; SameSite=Lax${window.location.protocol === 'https:' ? '; Secure' : ''}`

/** In the browser: the visitor accepted. */
export function writeGrantedCookie(): void {
  document.cookie = `${CONSENT_COOKIE}=${CONSENT_COOKIE_GRANTED}; Max-Age=${CONSENT_COOKIE_MAX_AGE_SECONDS}${attributes()}`
}

/** In the browser: removes cookies of this site by name (a decline removes consent and experiments). */
export function removeCookies(names: readonly string[]): void {
  for (const name of names) document.cookie = `${name}=; Max-Age=0${attributes()}`
}

/**
 * In the browser, the choice made: written only when granted; a decline removes it and the
 * experiments cookie, so nothing is kept of a visitor who said no.
 */
export function writeConsentCookie(choice: 'granted' | 'denied'): void {
  if (choice === 'granted') writeGrantedCookie()
  else removeCookies([CONSENT_COOKIE, EXPERIMENTS_COOKIE])
}
