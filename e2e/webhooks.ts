import { Webhook } from 'standardwebhooks'
import { E2E } from '../tools/test/e2e-env'
import { DELIVERIES_PATH, type ReceivedDelivery } from '../tools/test/webhook-receiver'

// The founders' webhooks as their receiver got them (tools/test/webhook-inbox.ts, which the suite
// starts): each delivery verified here again, with `standardwebhooks` and the suite's secret, as a
// founder's receiver would.

export type VerifiedDelivery = { id: string; verified: boolean; body: string; event: { type: string; data: Record<string, unknown> } | null }

export async function webhookDeliveries(): Promise<VerifiedDelivery[]> {
  const response = await fetch(`http://127.0.0.1:${E2E.webhookPort}${DELIVERIES_PATH}`)
  const deliveries = (await response.json()) as ReceivedDelivery[]
  const verifier = new Webhook(E2E.webhookSecret)
  return deliveries.map(({ id, headers, body }) => {
    try {
      return { id, verified: true, body, event: verifier.verify(body, headers as Record<string, string>) as VerifiedDelivery['event'] }
    } catch {
      return { id, verified: false, body, event: null }
    }
  })
}

/** The verified events of `type`, each once (a repeat delivery carries the same webhook-id). */
export async function webhookEvents(type: string): Promise<{ id: string; data: Record<string, unknown> }[]> {
  const seen = new Map<string, Record<string, unknown>>()
  for (const delivery of await webhookDeliveries()) if (delivery.event?.type === type && !seen.has(delivery.id)) seen.set(delivery.id, delivery.event.data)
  return [...seen].map(([id, data]) => ({ id, data }))
}
