/**
 * The visitor's analytics choice as the server reads it: a first-party cookie the banner writes
 * beside its own record (localStorage), so the proxy can tell a consenting visitor from the rest
 * before any page is drawn (components/experiments). Only "granted" is ever written; declining
 * removes it, and the experiments cookie with it. Listed in the Cookie Policy with its lifetime.
 */
export const CONSENT_COOKIE = 'consent'
export const CONSENT_COOKIE_GRANTED = 'granted'
/** A year: the choice is asked again after that, as the banner's record does not expire on its own. */
export const CONSENT_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 365
