/**
 * The load check's webhook stage (`npm run load`): while the confirmation stage's dispatchers
 * deliver what the confirmations caused, each `entry.confirmed` webhook goes to a local receiver
 * (tools/test/webhook-receiver.ts, verifying with standardwebhooks) that answers 500 to one
 * delivery in ten. The outbox retries those (with the load's zero backoff), and the stage
 * reconciles: every confirmed entry heard of exactly once, by webhook-id, every message marked
 * sent; retries and the duplicates the receiver dropped are counted.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { webhookChannel, type WebhookChannel } from '../../components/waitlist/outbox/webhook'
import { startWebhookReceiver, type WebhookReceiver } from '../test/webhook-receiver'
import { outboxMessages } from './load-confirmation'

export interface WebhookReport {
  confirmed: number
  /** entry.confirmed messages in the outbox, and those marked sent. */
  messages: number
  sent: number
  /** POSTs the receiver got, those it answered 500 (each retried), duplicates it dropped. */
  deliveries: number
  retries: number
  duplicates: number
  /** Distinct entry.confirmed events the receiver kept. */
  events: number
  /** From the first delivery to the last. */
  seconds: number
  problems: string[]
}

export type FlakyReceiver = { receiver: WebhookReceiver; channel: WebhookChannel; times: number[] }

/** A receiver that answers 500 to every tenth delivery, and the channel that signs for it. */
export async function startFlakyReceiver(): Promise<FlakyReceiver> {
  let count = 0
  const times: number[] = []
  const receiver = await startWebhookReceiver({
    answer: () => {
      times.push(performance.now())
      count += 1
      return count % 10 === 0 ? 500 : 200
    },
  })
  return { receiver, channel: webhookChannel({ url: receiver.url, secret: receiver.secret }), times }
}

export async function reconcileWebhooks(owner: SupabaseClient, { receiver, times }: FlakyReceiver, confirmed: number): Promise<WebhookReport> {
  const problems: string[] = []
  // The local double filters on columns only: the type is picked here.
  const rows = (await outboxMessages(owner, 'webhook')).filter((row) => row.payload.type === 'entry.confirmed')
  const sent = rows.filter((row) => row.status === 'sent').length
  const confirmedEvents = [...receiver.events.values()].filter((event) => event.type === 'entry.confirmed')
  const heard = new Set(confirmedEvents.map((event) => String(event.data.id)))
  if (rows.length !== confirmed) problems.push(`${rows.length} entry.confirmed messages for ${confirmed} confirmations`)
  if (sent !== rows.length) problems.push(`${rows.length - sent} entry.confirmed messages not marked sent`)
  if (confirmedEvents.length !== confirmed || heard.size !== confirmed)
    problems.push(`the receiver kept ${confirmedEvents.length} entry.confirmed events (${heard.size} entries) for ${confirmed} confirmations`)
  if (rows.some((row) => !heard.has(row.entry_id))) problems.push('a confirmed entry was never heard of')
  if (receiver.deliveries.some((delivery) => !delivery.verified)) problems.push('a delivery failed the standardwebhooks verifier')
  return {
    confirmed,
    messages: rows.length,
    sent,
    deliveries: receiver.deliveries.length,
    retries: receiver.deliveries.filter((delivery) => delivery.status === 500).length,
    duplicates: receiver.duplicates(),
    events: confirmedEvents.length,
    seconds: times.length > 1 ? (times.at(-1)! - times[0]!) / 1000 : 0,
    problems,
  }
}

export function formatWebhookReport(report: WebhookReport): string {
  return [
    `Webhooks:     ${report.confirmed} confirmations -> ${report.messages} entry.confirmed messages, ${report.sent} marked sent; ` +
      `${report.deliveries} deliveries in ${report.seconds.toFixed(1)} s, ${report.retries} answered 500 and retried, ${report.duplicates} duplicates dropped, ${report.events} events kept`,
    report.problems.length === 0
      ? 'Reconciliation OK: every confirmation reached the receiver exactly once (by webhook-id), each delivery verified.'
      : `Webhook reconciliation FAILED:\n${report.problems.map((problem) => `  - ${problem}`).join('\n')}`,
  ].join('\n')
}
