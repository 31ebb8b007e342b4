import { createHash, randomBytes } from 'node:crypto'
import { DEFAULT_LANGUAGE, localizePath } from '@/lib/i18n/languages'

/**
 * A token for a link in an e-mail (confirmation, the person's page, an invitation, one-click
 * unsubscribe): 32 random bytes (256 bits) as base64url, 43 characters, after `prefix` (an update
 * e-mail's unsubscribe token starts `updates.`: see components/waitlist/unsubscribe-path.ts). Only
 * its SHA-256, prefix included, reaches the database; the token itself lives in the dispatcher's
 * memory and in the e-mail.
 */
export function mintToken(prefix = ''): { token: string; hash: string } {
  const token = `${prefix}${randomBytes(32).toString('base64url')}`
  return { token, hash: hashToken(token) }
}

/** What the database computes: sha256 of the token's UTF-8 bytes, lower-case hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** The confirm page's address, in the person's language. The token travels in the fragment, which
 *  browsers never send to a server: it stays out of access logs, proxies and Referer headers. */
export function confirmationUrl(siteUrl: string, token: string, language: string = DEFAULT_LANGUAGE): string {
  return `${new URL(localizePath('/waitlist/confirm', language), siteUrl).toString()}#token=${token}`
}
