/**
 * The outbox dispatcher: takes the waitlist's due messages (supabase/migrations/
 * *_waitlist_confirmation.sql), sends each once and marks it. Server only; the transports and
 * the database are passed in, so tests can run it against real ones or break them on purpose.
 *
 * Delivery rules:
 * - a message is sent only under the lease its claim took, and marked with that lease;
 * - a failed send is recorded (error, attempt count) and retried later with exponential backoff
 *   by the database, so an SMTP outage loses nothing;
 * - nothing runs between a successful send and its mark but the mark itself: a failure there (a
 *   crash, the database gone) leaves the message 'sending', which the next claim after the lease
 *   marks 'in_doubt' instead of sending it again (no duplicate);
 * - a link e-mail (confirmation, or a fresh link to the person's own page) gets a new token, minted
 *   here, whose hash is stored before sending; it carries nothing the visitor typed, not even in the
 *   To: display name, since anyone can make us send one to any address;
 * - an erasure e-mail ("Delete me") goes to the address its message carries, the entry being gone;
 *   the database empties that payload when the message is marked;
 * - a failure is recorded and reported without the recipient's address or name (an SMTP rejection
 *   quotes them), for every kind.
 */
import { formatExpiry, renderErasureEmail, renderLinkEmail, type EmailChannel } from './email'
import { slackConfirmedBody, type SlackChannel } from './slack'
import { confirmationUrl, mintConfirmationToken } from './token'
import type { WaitlistEmailCopy } from '@/lib/content/types'

export type ClaimedEntry = {
  id: string
  name: string
  email: string
  project: string
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  referrer_host: string | null
  landing_path: string | null
}

type ClaimedBase = { id: string; lease_id: string; attempts: number }

/** A claimed message; an erasure e-mail's entry is already gone, its payload is all it has. */
export type ClaimedMessage =
  | (ClaimedBase & { kind: 'confirmation_email' | 'access_email'; payload: Record<string, never>; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'slack_confirmed'; payload: { total?: number }; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'erasure_email'; payload: { email: string; name: string }; entry: null })

/** The dispatcher's side of the database (components/waitlist/outbox/store.ts over supabase-js; tests may wrap it). */
export interface OutboxStore {
  claim(maxMessages: number): Promise<ClaimedMessage[]>
  /** Stores the token's hash on the entry; the link's expiry, or null when the entry is no longer pending. */
  attachToken(message: ClaimedMessage, tokenHash: string): Promise<Date | null>
  complete(message: ClaimedMessage, outcome: 'sent' | 'skipped', note?: string): Promise<boolean>
  fail(message: ClaimedMessage, error: string): Promise<string | null>
  purgePending(): Promise<number>
}

export type DispatchOptions = {
  store: OutboxStore
  email: EmailChannel
  /** Null when SLACK_WAITLIST_WEBHOOK_URL is not set: Slack messages are skipped, nothing fails. */
  slack: SlackChannel | null
  slackIncludeEmail: boolean
  copy: () => Promise<WaitlistEmailCopy>
  siteUrl: string
  maxMessages?: number
}

export type DispatchReport = { claimed: number; sent: number; skipped: number; failed: number; purged: number; errors: string[] }

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    return `${typeof code === 'string' ? `${code}: ` : ''}${error.message}`.slice(0, 500)
  }
  return String(error).slice(0, 500)
}

const ADDRESS = /[^\s<>()",;:]+@[^\s<>()",;:]+/g

/**
 * An error as it is stored and reported (and so logged): never the recipient's address or name,
 * which SMTP rejections quote ("550 5.1.1 <ada@example.com>"). Any address is replaced, and the
 * name wherever it appears, whatever the case.
 */
export function redactedError(reason: string, message: ClaimedMessage): string {
  const name = (message.kind === 'erasure_email' ? message.payload.name : message.entry.name).trim()
  const withoutAddresses = reason.replace(ADDRESS, '[address]')
  if (name.length < 2) return withoutAddresses
  return withoutAddresses.replace(new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '[name]')
}

type Outcome = { outcome: 'sent' | 'skipped'; note?: string }

async function deliver(message: ClaimedMessage, options: DispatchOptions): Promise<Outcome> {
  if (message.kind === 'slack_confirmed') {
    if (!options.slack) return { outcome: 'skipped', note: 'SLACK_WAITLIST_WEBHOOK_URL is not set.' }
    await options.slack(slackConfirmedBody(message.entry, message.payload.total ?? 0, { includeEmail: options.slackIncludeEmail }))
    return { outcome: 'sent' }
  }
  const copy = await options.copy()
  if (message.kind === 'erasure_email') {
    // Slack is not told: the founders' feed is about people joining (see the migration).
    const { name, email } = message.payload
    const rendered = await renderErasureEmail({ copy, name })
    await options.email({ ...rendered, to: { name, address: email }, senderName: copy.senderName, idempotencyKey: message.id })
    return { outcome: 'sent' }
  }
  const { token, hash } = mintConfirmationToken()
  const expires = await options.store.attachToken(message, hash)
  if (!expires) return { outcome: 'skipped', note: message.kind === 'confirmation_email' ? 'The entry is no longer pending.' : 'The entry is not confirmed.' }
  const rendered = await renderLinkEmail({ copy, kind: message.kind, url: confirmationUrl(options.siteUrl, token), expires: formatExpiry(expires) })
  await options.email({ ...rendered, to: { name: '', address: message.entry.email }, senderName: copy.senderName, idempotencyKey: message.id })
  return { outcome: 'sent' }
}

export async function dispatchOutbox(options: DispatchOptions): Promise<DispatchReport> {
  const report: DispatchReport = { claimed: 0, sent: 0, skipped: 0, failed: 0, purged: 0, errors: [] }
  report.purged = await options.store.purgePending()
  const messages = await options.store.claim(options.maxMessages ?? 20)
  report.claimed = messages.length
  for (const message of messages) {
    let result: Outcome
    try {
      result = await deliver(message, options)
    } catch (error) {
      const reason = redactedError(describeError(error), message)
      report.failed += 1
      report.errors.push(`${message.kind} ${message.id}: ${reason}`)
      await options.store.fail(message, reason)
      continue
    }
    // Outside the try: a failure to mark after a send must not be recorded as a failed send
    // (that would retry it); it propagates, and the lease decides (see the module comment).
    await options.store.complete(message, result.outcome, result.note)
    report[result.outcome === 'sent' ? 'sent' : 'skipped'] += 1
  }
  return report
}
