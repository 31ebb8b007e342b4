import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * True when the request carries `Authorization: Bearer <secret>` for the configured secret.
 * Both sides are hashed first, so the comparison is constant-time whatever their lengths; with no
 * secret configured nothing is accepted.
 */
export function hasBearerSecret(authorization: string | null, secret: string | undefined): boolean {
  if (!secret || !authorization) return false
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  if (!match) return false
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()
  return timingSafeEqual(digest(match[1] as string), digest(secret))
}
