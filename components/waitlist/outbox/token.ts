import { createHash, randomBytes } from 'node:crypto'

/**
 * A confirmation token: 32 random bytes (256 bits) as base64url, 43 characters. Only its SHA-256
 * reaches the database; the token itself lives in the dispatcher's memory and in the e-mail.
 */
export function mintConfirmationToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: hashConfirmationToken(token) }
}

/** What public.waitlist_confirm() computes: sha256 of the token's UTF-8 bytes, lower-case hex. */
export function hashConfirmationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** The confirm page's address. The token travels in the fragment, which browsers never send to
 *  a server: it stays out of access logs, proxies and Referer headers. */
export function confirmationUrl(siteUrl: string, token: string): string {
  return `${new URL('/waitlist/confirm', siteUrl).toString()}#token=${token}`
}
