/**
 * The two receivers the webhook suites use: `receiver`, the founders' configured one, and
 * `elsewhere`, where a redirect from it points (it must never be reached). Started once per file,
 * emptied before each test, so each test scripts its own answers.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest'
import { startWebhookReceiver, type WebhookReceiver } from '@/tools/test/webhook-receiver'

export function webhookReceivers(): { receiver: () => WebhookReceiver; elsewhere: () => WebhookReceiver } {
  let receiver: WebhookReceiver
  let elsewhere: WebhookReceiver
  beforeAll(async () => {
    receiver = await startWebhookReceiver()
    elsewhere = await startWebhookReceiver({ secret: receiver.secret })
  })
  afterAll(async () => {
    await receiver?.close()
    await elsewhere?.close()
  })
  beforeEach(() => {
    receiver.deliveries.length = 0
    receiver.events.clear()
    receiver.answer = () => 200
    elsewhere.deliveries.length = 0
  })
  return { receiver: () => receiver, elsewhere: () => elsewhere }
}
