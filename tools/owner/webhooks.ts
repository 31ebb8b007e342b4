/**
 * Webhook deliveries (supabase/schemas/07_outbox_webhooks.sql): what the founders' own tools were sent,
 * for the console. The database lists them (public.waitlist_webhook_deliveries) and puts a failed
 * one back in the outbox (public.waitlist_webhook_resend), due now, with the same webhook-id.
 */
import type { OwnerClient } from './owner'

export type DeliveryState = 'sent' | 'retrying' | 'waiting' | 'sending' | 'failed' | 'skipped' | 'in_doubt'

/** One row of public.waitlist_webhook_deliveries. */
export type WebhookDeliveryRow = {
  id: string
  type: string
  entry_id: string | null
  state: DeliveryState
  attempts: number
  last_error: string | null
  note: string | null
  created_at: string
  sent_at: string | null
  next_attempt_at: string | null
}

/** How many the console shows: failed ones first, then the latest. */
export const DELIVERIES_SHOWN = 50

export async function listDeliveries(client: OwnerClient, max = DELIVERIES_SHOWN): Promise<WebhookDeliveryRow[]> {
  const { data, error } = await client.rpc('waitlist_webhook_deliveries', { max_rows: max })
  if (error) throw new Error(`Could not read the webhook deliveries: ${error.message}`)
  return data as WebhookDeliveryRow[]
}

/** True when the delivery was failed and is due again now; false for any other message. */
export async function resendDelivery(client: OwnerClient, id: string): Promise<boolean> {
  const { data, error } = await client.rpc('waitlist_webhook_resend', { message_id: id })
  if (error) throw new Error(`Could not resend delivery ${id}: ${error.message}`)
  return data === true
}
