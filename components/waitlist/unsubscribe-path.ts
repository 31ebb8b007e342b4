import { DEFAULT_LANGUAGE, localizePath } from '@/lib/i18n/languages'
import { isLinkToken, isPrefixedLinkToken } from './token-shape'

/** The one-click unsubscribe address: every e-mail's List-Unsubscribe header, and the leave page's button. */
export const UNSUBSCRIBE_PATH = '/api/unsubscribe'

/** The page a person is shown (a GET of the header's address leads there): the token in the fragment. */
export const LEAVE_PAGE_PATH = '/waitlist/unsubscribe'

/**
 * How an update e-mail's unsubscribe token starts. Its scope (stop updates, keep the place) is the
 * database's, stored with the token's hash when the e-mail is sent; the prefix only lets the leave
 * page word itself before anything is asked, and changing it makes a token nobody has.
 */
export const UPDATES_TOKEN_PREFIX = 'updates.'

/** Whether a token is an update e-mail's (see UPDATES_TOKEN_PREFIX): only the words depend on it. */
export function isUpdatesToken(token: string | null): boolean {
  return token?.startsWith(UPDATES_TOKEN_PREFIX) ?? false
}

/** Whether a string has an unsubscribe token's shape (a link token, or an update e-mail's): anything else is nobody's. */
export function isUnsubscribeToken(token: unknown): token is string {
  return isLinkToken(token) || isPrefixedLinkToken(token, UPDATES_TOKEN_PREFIX)
}

/**
 * The header's address: RFC 8058 wants the token in the URL, POSTed as it is. The person's language
 * rides along only for a GET, whose answer is the leave page in it; the token alone decides what a
 * POST does.
 */
export function unsubscribeUrl(siteUrl: string, token: string, language: string = DEFAULT_LANGUAGE): string {
  const url = new URL(UNSUBSCRIBE_PATH, siteUrl)
  url.searchParams.set('token', token)
  if (language !== DEFAULT_LANGUAGE) url.searchParams.set('lang', language)
  return url.toString()
}

/** The link written into the e-mail: the page that asks for a press, in the person's language. */
export function leavePageUrl(siteUrl: string, token: string, language: string = DEFAULT_LANGUAGE): string {
  return `${new URL(localizePath(LEAVE_PAGE_PATH, language), siteUrl).toString()}#token=${token}`
}
