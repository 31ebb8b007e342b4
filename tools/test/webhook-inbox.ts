/**
 * The founders' webhook receiver as a process, for the end-to-end suite (playwright.config.ts starts
 * it; the site's e2e environment points WAITLIST_WEBHOOK_URL at it): every delivery of every spec
 * lands here, and a spec reads them back at DELIVERIES_PATH and verifies each itself with
 * `standardwebhooks` (e2e/rewards.admission.spec.ts).
 * `tsx tools/test/webhook-inbox.ts --port <port> --secret <whsec_…>`
 */
import { parseArgs } from 'node:util'
import { startWebhookReceiver } from './webhook-receiver'

const { values } = parseArgs({ options: { port: { type: 'string' }, secret: { type: 'string' } } })
if (!values.port || !values.secret) throw new Error('Usage: tsx tools/test/webhook-inbox.ts --port <port> --secret <whsec_…>')
const receiver = await startWebhookReceiver({ port: Number(values.port), secret: values.secret })
console.log(`Webhook receiver: ${receiver.url}`)
const stop = () => void receiver.close().then(() => process.exit(0))
process.once('SIGTERM', stop)
process.once('SIGINT', stop)
