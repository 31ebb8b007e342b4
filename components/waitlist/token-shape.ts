/**
 * The one shape of every token the waitlist e-mails or hands out: 32 random bytes in base64url, 43
 * characters (components/waitlist/outbox/token.ts mints them, and the database's token functions
 * refuse any other shape). Browser-safe. A string of another shape (empty, NUL, a lone surrogate,
 * a control or bidi character, 10 kB) can never be one of ours: the routes and the link page
 * answer "invalid" for it without asking the database, which refuses some of those bytes outright
 * (Postgres text holds no NUL) with an error that would read as "out of reach, try again".
 */
const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/

/** A confirmation, own-data or invitation token's shape. */
export function isLinkToken(value: unknown): value is string {
  return typeof value === 'string' && LINK_TOKEN.test(value)
}

/** The same token after `prefix` (an update e-mail's unsubscribe token is `updates.` and one). */
export function isPrefixedLinkToken(value: unknown, prefix: string): value is string {
  return typeof value === 'string' && value.startsWith(prefix) && LINK_TOKEN.test(value.slice(prefix.length))
}
