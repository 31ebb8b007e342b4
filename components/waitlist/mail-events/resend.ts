/**
 * Resend's webhooks, signed by Svix, which is the Standard Webhooks scheme: `svix-id`,
 * `svix-timestamp` (seconds) and `svix-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`,
 * several separated by spaces while a secret is rotated), keyed by the endpoint's `whsec_` secret.
 * The `standardwebhooks` package checks the signature and refuses a timestamp more than five
 * minutes from now (a replay of a captured request); the svix-id is the event's id, stored by the
 * database, so a replay within those minutes is refused too.
 */
import { Webhook } from 'standardwebhooks'
import { isoTime, parseJson, refused, text, type MailEvent, type MailEventKind, type Verified } from './event'

type Headers = { get(name: string): string | null }

function kindOf(type: string | null, data: Record<string, unknown>): MailEventKind {
  if (type === 'email.delivered') return 'delivered'
  if (type === 'email.complained') return 'complaint'
  if (type === 'email.bounced') {
    const bounce = (data.bounce ?? {}) as Record<string, unknown>
    // Resend passes SES's bounce types through: Permanent is hard; Transient and Undetermined are soft.
    return text(bounce.type)?.toLowerCase() === 'permanent' ? 'hard_bounce' : 'soft_bounce'
  }
  if (type === 'email.delivery_delayed') return 'soft_bounce'
  return 'other'
}

export function verifyResend(body: string, headers: Headers, secret: string): Verified {
  const id = headers.get('svix-id')
  const timestamp = headers.get('svix-timestamp')
  const signature = headers.get('svix-signature')
  if (!id || !timestamp || !signature) return refused(401, 'missing svix-id, svix-timestamp or svix-signature')
  try {
    new Webhook(secret).verify(body, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature })
  } catch (error) {
    return refused(401, error instanceof Error ? error.message : 'bad signature')
  }
  const payload = parseJson(body)
  if (!payload) return refused(400, 'not a JSON object')
  const data = (payload.data ?? {}) as Record<string, unknown>
  const to = Array.isArray(data.to) ? data.to.map(text).filter((value): value is string => value !== null) : []
  const kind = kindOf(text(payload.type), data)
  const occurredAt = isoTime(payload.created_at) ?? isoTime(Number(timestamp) * 1000)
  const events: MailEvent[] = (to.length ? to : [null]).map((email, index) => ({
    provider: 'resend',
    id: to.length > 1 ? `${id}:${index}` : id,
    kind,
    email,
    occurredAt,
  }))
  return { ok: true, events }
}
