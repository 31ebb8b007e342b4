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
 * - an invitation (and its reminder) gets an invitation token the same way; its button opens the
 *   product's app, and it greets the person by name (the founders chose to send it, to an address
 *   that confirmed itself);
 * - every e-mail to a person on the list carries a one-click unsubscribe token of its own (RFC 8058
 *   headers, and a visible link), minted and stored the same way;
 * - an update e-mail (a post the founders chose to e-mail, supabase/migrations/*_waitlist_updates.sql)
 *   carries the post's title, summary and path in its message; its unsubscribe token stops updates
 *   only (the database scopes it by the message's kind), and the database refuses that token, so the
 *   e-mail is skipped, when the person no longer wants updates;
 * - an erasure e-mail ("Delete me") goes to the address its message carries, the entry being gone;
 *   the database empties that payload when the message is marked;
 * - every e-mail is written in the person's language (the database writes it into each message when
 *   it is queued: supabase/migrations/*_waitlist_language.sql), its links lead to pages in it, and
 *   English's words stand in for a language the site no longer has;
 * - a failure is recorded and reported without the recipient's address or name (an SMTP rejection
 *   quotes them), for every kind;
 * - a webhook (./webhook.ts) is signed and POSTed to WAITLIST_WEBHOOK_URL, at least once: unlike an
 *   e-mail, a lost lease sends it again, with the same webhook-id, and a failure the receiver's
 *   answer makes final (a redirect, a 4xx other than 408/429) is marked failed at once. Without a
 *   receiver configured it is skipped (nothing fails, and the database deletes it later).
 */
import { invitationUrl } from '@/components/waitlist/invitation-url'
import { leavePageUrl, unsubscribeUrl, UPDATES_TOKEN_PREFIX } from '@/components/waitlist/unsubscribe-path'
import { formatExpiry, renderErasureEmail, renderInvitationEmail, renderLinkEmail, renderUpdateEmail, type EmailChannel } from './email'
import { slackConfirmedBody, slackJoinedBody, type SlackChannel, type SlackJoinedPayload } from './slack'
import { confirmationUrl, mintToken } from './token'
import { webhookEvent, webhookId, WebhookDeliveryError, type WebhookChannel, type WebhookPayload } from './webhook'
import type { WaitlistEmailCopy } from '@/lib/content/types'
import { DEFAULT_LANGUAGE } from '@/lib/i18n/languages'

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

/** What waitlist_broadcast_post wrote into each update e-mail's message. */
export type UpdatePayload = { post_id: string; title: string; excerpt: string; path: string }

/** A claimed message; an erasure e-mail's entry is already gone, its payload is all it has. */
export type ClaimedMessage =
  | (ClaimedBase & { kind: 'confirmation_email' | 'access_email'; payload: Record<string, never>; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'invitation_email' | 'reminder_email'; payload: { invitation_id?: string }; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'update_email'; payload: UpdatePayload; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'slack_confirmed'; payload: { total?: number }; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'slack_joined'; payload: SlackJoinedPayload; entry: ClaimedEntry })
  | (ClaimedBase & { kind: 'erasure_email'; payload: { email: string; name: string }; entry: null })
  | (ClaimedBase & { kind: 'webhook'; payload: WebhookPayload; entry: ClaimedEntry | null })

/** The dispatcher's side of the database (components/waitlist/outbox/store.ts over supabase-js; tests may wrap it). */
export interface OutboxStore {
  claim(maxMessages: number): Promise<ClaimedMessage[]>
  /** Stores a link's token hash (confirmation, the person's page, the invitation); the date the e-mail states, or null when the message no longer applies. */
  attachToken(message: ClaimedMessage, tokenHash: string): Promise<Date | null>
  /** Stores the e-mail's one-click unsubscribe token hash; false when the lease was lost. */
  attachUnsubscribe(message: ClaimedMessage, tokenHash: string): Promise<boolean>
  complete(message: ClaimedMessage, outcome: 'sent' | 'skipped', note?: string): Promise<boolean>
  /** `final`: not worth retrying (marked failed at once). */
  fail(message: ClaimedMessage, error: string, final?: boolean): Promise<string | null>
  purgePending(): Promise<number>
}

export type DispatchOptions = {
  store: OutboxStore
  email: EmailChannel
  /** Null when SLACK_WAITLIST_WEBHOOK_URL is not set: Slack messages are skipped, nothing fails. */
  slack: SlackChannel | null
  slackIncludeEmail: boolean
  /** Null when WAITLIST_WEBHOOK_URL is not set: webhooks are skipped, nothing fails. */
  webhook?: WebhookChannel | null
  /** The e-mails' words in a language (English's where the language has none). */
  copy: (language: string) => Promise<WaitlistEmailCopy>
  /** The product's app (Site settings → App address), where invitations lead. */
  appUrl: () => Promise<string>
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
  const name = (message.kind === 'erasure_email' ? message.payload.name : (message.entry?.name ?? '')).trim()
  const withoutAddresses = reason.replace(ADDRESS, '[address]')
  if (name.length < 2) return withoutAddresses
  return withoutAddresses.replace(new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '[name]')
}

type Outcome = { outcome: 'sent' | 'skipped'; note?: string }

/** The person's language, which the database wrote into the message when it was queued (English for one queued before languages). */
export const messageLanguage = (message: ClaimedMessage): string => (message.payload as { language?: unknown }).language as string | undefined ?? DEFAULT_LANGUAGE

async function deliver(message: ClaimedMessage, options: DispatchOptions): Promise<Outcome> {
  if (message.kind === 'webhook') {
    if (!options.webhook) return { outcome: 'skipped', note: 'WAITLIST_WEBHOOK_URL is not set.' }
    await options.webhook({ id: webhookId(message.id), body: JSON.stringify(webhookEvent(message.payload, message.entry)) })
    return { outcome: 'sent' }
  }
  if (message.kind === 'slack_confirmed' || message.kind === 'slack_joined') {
    if (!options.slack) return { outcome: 'skipped', note: 'SLACK_WAITLIST_WEBHOOK_URL is not set.' }
    const body =
      message.kind === 'slack_confirmed'
        ? slackConfirmedBody(message.entry, message.payload.total ?? 0, { includeEmail: options.slackIncludeEmail, language: messageLanguage(message) })
        : slackJoinedBody(message.entry, message.payload, { includeEmail: options.slackIncludeEmail })
    await options.slack(body)
    return { outcome: 'sent' }
  }
  const language = messageLanguage(message)
  const copy = await options.copy(language)
  if (message.kind === 'erasure_email') {
    // Slack is not told, and the person has left: no way off the list to offer (see the migrations).
    const { name, email } = message.payload
    const rendered = await renderErasureEmail({ copy, name })
    await options.email({ ...rendered, to: { name, address: email }, senderName: copy.senderName, idempotencyKey: message.id })
    return { outcome: 'sent' }
  }
  if (message.kind === 'update_email') return deliverUpdate(message, copy, language, options)
  const unsubscribe = mintToken()
  if (!(await options.store.attachUnsubscribe(message, unsubscribe.hash))) return { outcome: 'skipped', note: 'The lease was lost.' }
  const link = mintToken()
  const expires = await options.store.attachToken(message, link.hash)
  if (!expires) return { outcome: 'skipped', note: SKIPPED[message.kind] }
  const leavePage = leavePageUrl(options.siteUrl, unsubscribe.token, language)
  const sending = { senderName: copy.senderName, idempotencyKey: message.id, unsubscribeUrl: unsubscribeUrl(options.siteUrl, unsubscribe.token, language) }
  if (message.kind === 'invitation_email' || message.kind === 'reminder_email') {
    const url = invitationUrl(await options.appUrl(), link.token)
    const rendered = await renderInvitationEmail({ copy, kind: message.kind, name: message.entry.name, url, expires: formatExpiry(expires, language), unsubscribeUrl: leavePage })
    await options.email({ ...rendered, ...sending, to: { name: message.entry.name, address: message.entry.email } })
    return { outcome: 'sent' }
  }
  const rendered = await renderLinkEmail({ copy, kind: message.kind, url: confirmationUrl(options.siteUrl, link.token, language), expires: formatExpiry(expires, language), unsubscribeUrl: leavePage })
  await options.email({ ...rendered, ...sending, to: { name: '', address: message.entry.email } })
  return { outcome: 'sent' }
}

/**
 * A post to a person who asked for updates. The database attaches its unsubscribe token only while
 * they still want updates (the last check before sending), and scopes it to updates.
 */
async function deliverUpdate(message: Extract<ClaimedMessage, { kind: 'update_email' }>, copy: WaitlistEmailCopy, language: string, options: DispatchOptions): Promise<Outcome> {
  const unsubscribe = mintToken(UPDATES_TOKEN_PREFIX)
  if (!(await options.store.attachUnsubscribe(message, unsubscribe.hash))) return { outcome: 'skipped', note: 'The person no longer wants updates (or the lease was lost).' }
  const { title, excerpt, path } = message.payload
  const url = new URL(path, options.siteUrl)
  // The database takes only a path; this keeps the button on the site whatever the payload says.
  if (url.origin !== new URL(options.siteUrl).origin) throw new Error('The post’s path is not on this site.')
  const rendered = await renderUpdateEmail({ copy, name: message.entry.name, post: { title, excerpt }, url: url.toString(), unsubscribeUrl: leavePageUrl(options.siteUrl, unsubscribe.token, language) })
  await options.email({
    ...rendered,
    to: { name: message.entry.name, address: message.entry.email },
    senderName: copy.senderName,
    idempotencyKey: message.id,
    unsubscribeUrl: unsubscribeUrl(options.siteUrl, unsubscribe.token, language),
  })
  return { outcome: 'sent' }
}

/** Why a link e-mail no longer applies when its token could not be attached. */
const SKIPPED = {
  confirmation_email: 'The entry is no longer pending.',
  access_email: 'The entry is not confirmed.',
  invitation_email: 'The invitation was redeemed or has expired.',
  reminder_email: 'The invitation was redeemed or has expired.',
} as const

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
      await options.store.fail(message, reason, error instanceof WebhookDeliveryError && error.final)
      continue
    }
    // Outside the try: a failure to mark after a send must not be recorded as a failed send
    // (that would retry it); it propagates, and the lease decides (see the module comment).
    await options.store.complete(message, result.outcome, result.note)
    report[result.outcome === 'sent' ? 'sent' : 'skipped'] += 1
  }
  return report
}
