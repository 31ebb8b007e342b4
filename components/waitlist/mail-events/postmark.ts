/**
 * Postmark's webhooks are not signed: Postmark's own advice is basic auth in the webhook's URL
 * (https://user:password@…), which it sends as `Authorization: Basic …`, over HTTPS. The password is
 * compared in constant time. Postmark signs no timestamp, so a replay is refused by the event's id
 * (a bounce's or complaint's `ID`; a delivery's `MessageID` with its recipient), stored by the
 * database.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { isoTime, parseJson, refused, text, type MailEventKind, type Verified } from './event'

// Postmark's bounce types (its "Bounce types" reference): these mean the address will never take mail.
const HARD = new Set(['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated', 'Unsubscribe', 'SpamNotification', 'Blocked'])
const SOFT = new Set(['Transient', 'SoftBounce', 'DnsError', 'AutoResponder', 'MailFrontier', 'ChallengeVerification', 'Undeliverable', 'Unknown'])

function same(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest()
  return timingSafeEqual(digest(a), digest(b))
}

export function hasBasicAuth(authorization: string | null, user: string, password: string): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '')
  if (!match) return false
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return false
  // Both compared, always: no early answer that tells which half was wrong.
  const userOk = same(decoded.slice(0, colon), user)
  const passwordOk = same(decoded.slice(colon + 1), password)
  return userOk && passwordOk
}

export function verifyPostmark(body: string, authorization: string | null, user: string, password: string): Verified {
  if (!hasBasicAuth(authorization, user, password)) return refused(401, 'wrong or missing basic auth')
  const payload = parseJson(body)
  if (!payload) return refused(400, 'not a JSON object')
  const record = text(payload.RecordType)
  let kind: MailEventKind = 'other'
  let id = payload.ID === undefined || payload.ID === null ? null : String(payload.ID)
  let email = text(payload.Email)
  let occurredAt = isoTime(payload.BouncedAt)
  if (record === 'Bounce') {
    const type = text(payload.Type) ?? ''
    kind = HARD.has(type) ? 'hard_bounce' : SOFT.has(type) ? 'soft_bounce' : 'other'
  } else if (record === 'SpamComplaint') {
    kind = 'complaint'
  } else if (record === 'Delivery') {
    kind = 'delivered'
    email = text(payload.Recipient)
    occurredAt = isoTime(payload.DeliveredAt)
    id = text(payload.MessageID) && email ? `delivery:${String(payload.MessageID)}:${email}` : null
  } else {
    id = id ?? (text(payload.MessageID) ? `${record ?? 'event'}:${String(payload.MessageID)}` : null)
  }
  if (!id) return refused(400, 'no event id')
  return { ok: true, events: [{ provider: 'postmark', id: `${record ?? 'event'}:${id}`, kind, email, occurredAt }] }
}
