/**
 * Webhooks to the founders' own tools, the Standard Webhooks way (https://www.standardwebhooks.com,
 * the `standardwebhooks` package signs): a POST with `webhook-id`, `webhook-timestamp` (seconds)
 * and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), and a JSON body
 * `{"type", "timestamp", "data"}`. docs/founders.md ("Webhooks") is the receiver's side.
 *
 * Delivery rules (the outbox retries; this module only says whether a failure is worth retrying):
 * - the webhook-id is derived from the outbox message's id, so every retry carries the same one
 *   and a receiver drops duplicates by it;
 * - a 2xx is delivered; a 5xx, 408, 429, a timeout (10 s) or a network failure (a refused
 *   connection) is retried with backoff; any other answer is final: a 4xx says the receiver
 *   refuses this delivery, and a 3xx is not followed (`redirect: 'manual'`), since following it
 *   would send the signed body somewhere the founders did not configure;
 * - a failure never quotes the receiver's answer (it may echo the person's name or address).
 */
import { Webhook } from 'standardwebhooks'
import { describeWaitlistSource } from '@/components/waitlist/source'
import type { ClaimedEntry } from './entry'

export const WEBHOOK_TYPES = ['entry.confirmed', 'entry.invited', 'entry.joined', 'referral.credited', 'reward.earned', 'task.completed', 'entry.left'] as const
export type WebhookType = (typeof WEBHOOK_TYPES)[number]

/** What the database writes into a webhook message (supabase/schemas/07_outbox_webhooks.sql): nothing that names the person. */
export type WebhookPayload = { type: WebhookType; occurred_at: string; data: Record<string, unknown>; language?: string }

export type WebhookEvent = { type: WebhookType; timestamp: string; data: Record<string, unknown> }

/** signal: the dispatch run's hard stop (components/waitlist/outbox/dispatch.ts), on top of the call's own timeout. */
export type WebhookDelivery = { id: string; body: string; signal?: AbortSignal }
export type WebhookChannel = (delivery: WebhookDelivery) => Promise<void>

export const WEBHOOK_TIMEOUT_MS = 10_000

/** A failed delivery; `final` when retrying cannot help (a redirect, a 4xx other than 408 and 429). */
export class WebhookDeliveryError extends Error {
  override name = 'WebhookDeliveryError'
  constructor(
    message: string,
    readonly final: boolean,
  ) {
    super(message)
  }
}

/** The same on every retry: Standard Webhooks' `msg_` prefix and the outbox message's id. */
export function webhookId(messageId: string): string {
  return `msg_${messageId.replaceAll('-', '')}`
}

/**
 * The event as the receiver reads it. Every event but entry.left names the person (id, name,
 * e-mail), read now from their entry; entry.left carries the id alone, so a tool can delete them.
 */
export function webhookEvent(payload: WebhookPayload, entry: ClaimedEntry | null): WebhookEvent {
  const timestamp = new Date(payload.occurred_at).toISOString()
  if (payload.type === 'entry.left') return { type: payload.type, timestamp, data: { id: String(payload.data.id) } }
  if (!entry) throw new Error(`A ${payload.type} webhook has no entry.`)
  const person = { id: entry.id, name: entry.name, email: entry.email }
  if (payload.type === 'reward.earned') return { type: payload.type, timestamp, data: { ...person, ...rewardEarned(payload.data) } }
  if (payload.type !== 'entry.confirmed') return { type: payload.type, timestamp, data: { ...person, ...payload.data } }
  return {
    type: payload.type,
    timestamp,
    data: {
      ...person,
      company: entry.project || null,
      language: payload.language ?? null,
      source: {
        description: describeWaitlistSource(entry) ?? null,
        utm_source: entry.utm_source,
        utm_medium: entry.utm_medium,
        utm_campaign: entry.utm_campaign,
        referrer_host: entry.referrer_host,
        landing_path: entry.landing_path,
      },
      answers: entry.answers ?? {},
      place: payload.data.place ?? null,
      referred_by: payload.data.referred_by ?? null,
      confirmed_at: payload.data.confirmed_at ?? null,
    },
  }
}

/**
 * reward.earned's own fields, in a fixed shape (docs/founders.md): the rung's key and kind, whether
 * it is granted or held for a founder's approval, its places (null for a perk) and its threshold
 * when earned (null once the rung left the ladder).
 */
function rewardEarned(data: Record<string, unknown>) {
  return {
    rung: String(data.rung),
    kind: data.kind === 'places' ? 'places' : 'perk',
    status: data.status === 'held' ? 'held' : 'granted',
    places: typeof data.places === 'number' ? data.places : null,
    threshold: typeof data.threshold === 'number' ? data.threshold : null,
  }
}

/** Whether an answer is worth another attempt (Standard Webhooks' advice, and the issue's). */
export function retryable(status: number): boolean {
  return status >= 500 || status === 408 || status === 429
}

export type WebhookChannelOptions = {
  url: string
  secret: string
  fetch?: typeof globalThis.fetch
  timeoutMs?: number
  now?: () => Date
}

export function webhookChannel({
  url,
  secret,
  fetch = globalThis.fetch,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
  now = () => new Date(),
}: WebhookChannelOptions): WebhookChannel {
  const signer = new Webhook(secret)
  return async ({ id, body, signal }) => {
    const sentAt = now()
    let response: Response
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signer.sign(id, sentAt, body),
        },
        body,
        redirect: 'manual',
        signal: signal ? AbortSignal.any([AbortSignal.timeout(timeoutMs), signal]) : AbortSignal.timeout(timeoutMs),
        cache: 'no-store',
      })
    } catch (error) {
      const cause = (error as { cause?: { code?: unknown } }).cause
      const reason =
        error instanceof Error && error.name === 'TimeoutError' && !signal?.aborted
          ? `no answer within ${timeoutMs / 1000} s`
          : signal?.aborted
            ? 'the dispatch run’s time ran out'
            : typeof cause?.code === 'string'
              ? cause.code
              : error instanceof Error
                ? error.message
                : String(error)
      throw new WebhookDeliveryError(`Webhook not delivered: ${reason}.`, false)
    }
    // The body is never read: it may quote the person, and it is not ours to store.
    await response.body?.cancel().catch(() => {})
    if (response.status >= 200 && response.status < 300) return
    // fetch in Node reports a manual redirect as its real 3xx status; a browser would say 0.
    if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
      throw new WebhookDeliveryError(
        `Webhook answered with a redirect (HTTP ${response.status}); redirects are not followed: set WAITLIST_WEBHOOK_URL to the final address.`,
        true,
      )
    }
    throw new WebhookDeliveryError(
      `Webhook answered HTTP ${response.status}${retryable(response.status) ? '' : ' (not retried)'}.`,
      !retryable(response.status),
    )
  }
}
