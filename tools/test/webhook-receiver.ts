/**
 * A founders' webhook receiver as docs/founders.md ("Webhooks") tells one to be written, on
 * 127.0.0.1, for the tests and `npm run load`: it verifies each delivery with `standardwebhooks`,
 * answers what the test scripts (a 500 first, one in ten failing, a redirect), and keeps each
 * event once by its webhook-id, counting the duplicates it dropped.
 */
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

export type ReceivedDelivery = {
  id: string
  headers: IncomingHttpHeaders
  body: string
  /** The verifier accepted it (signature, timestamp within five minutes). */
  verified: boolean
  /** The status this receiver answered. */
  status: number
}

/**
 * What to answer a delivery: its webhook-id and how many times that id has arrived (1 the first
 * time). `delayMs`: a slow receiver, which keeps the event and answers only after it (even when the
 * sender gave up meanwhile, as a real one would: the retry is then a duplicate); Infinity: a hung
 * one, which never answers.
 */
export type Answer = (delivery: {
  id: string
  attempt: number
  body: string
}) => number | { status: number; headers?: Record<string, string>; delayMs?: number }

export type WebhookReceiver = {
  url: string
  secret: string
  /** Every delivery in order of arrival, duplicates and refused ones included. */
  deliveries: ReceivedDelivery[]
  /** Each verified, 2xx-answered event once, by webhook-id, in order of first arrival. */
  events: Map<string, { type: string; timestamp: string; data: Record<string, unknown> }>
  /** Deliveries of an id already in `events`: dropped, as a receiver should. */
  duplicates: () => number
  answer: Answer
  close(): Promise<void>
}

/** GET: every delivery so far, as JSON (ReceivedDelivery[]). */
export const DELIVERIES_PATH = '/__deliveries'

/** A fresh Standard Webhooks secret: whsec_ and base64 of 32 random bytes. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`

export async function startWebhookReceiver({
  secret = newWebhookSecret(),
  answer = () => 200,
  path = '/hooks/waitlist',
  port = 0,
}: { secret?: string; answer?: Answer; path?: string; port?: number } = {}): Promise<WebhookReceiver> {
  const verifier = new Webhook(secret)
  const attempts = new Map<string, number>()
  let duplicates = 0
  const receiver: WebhookReceiver = {
    url: '',
    secret,
    deliveries: [],
    events: new Map(),
    duplicates: () => duplicates,
    answer,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  const server = createServer((request, response) => {
    // What the end-to-end suite reads back (tools/test/webhook-inbox.ts): every delivery as it came.
    if (request.method === 'GET' && request.url === DELIVERIES_PATH) {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(receiver.deliveries))
      return
    }
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const id = String(request.headers['webhook-id'] ?? '')
      let verified = false
      let event: { type: string; timestamp: string; data: Record<string, unknown> } | undefined
      try {
        event = verifier.verify(body, request.headers as Record<string, string>) as typeof event
        verified = true
      } catch {
        verified = false
      }
      const attempt = (attempts.get(id) ?? 0) + 1
      attempts.set(id, attempt)
      const answered = verified ? receiver.answer({ id, attempt, body }) : 401
      const { status, headers = {}, delayMs = 0 } = typeof answered === 'number' ? { status: answered } : answered
      receiver.deliveries.push({ id, headers: request.headers, body, verified, status })
      const finish = () => {
        if (verified && event && status >= 200 && status < 300) {
          if (receiver.events.has(id)) duplicates += 1
          else receiver.events.set(id, event)
        }
        if (!response.destroyed) response.writeHead(status, { 'Content-Type': 'text/plain', ...headers }).end(status < 300 ? 'ok' : 'no')
      }
      if (delayMs === 0) finish()
      else if (Number.isFinite(delayMs)) setTimeout(finish, delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
  return receiver
}
