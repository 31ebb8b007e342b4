/**
 * The webhook channel (components/waitlist/outbox/webhook.ts) against a real HTTP receiver on
 * 127.0.0.1, verified with `standardwebhooks` as a founder's receiver would: what it signs, which
 * answers it retries and which are final, that it follows no redirect, and that a forged, replayed
 * or tampered delivery fails the verifier. And the env's refusals (lib/env).
 */
import { createServer } from 'node:net'
import { beforeEach, describe, expect, it } from 'vitest'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import { serverEnv, webhookSecretValid } from '@/lib/env'
import type { ClaimedEntry } from '@/components/waitlist/outbox/dispatch'
import { webhookChannel, webhookEvent, webhookId, WebhookDeliveryError, type WebhookPayload } from '@/components/waitlist/outbox/webhook'
import { newWebhookSecret, type WebhookReceiver } from '@/tools/test/webhook-receiver'
import { webhookReceivers } from '../helpers/webhook-receivers'

const receivers = webhookReceivers()
let receiver: WebhookReceiver
let elsewhere: WebhookReceiver
beforeEach(() => {
  receiver = receivers.receiver()
  elsewhere = receivers.elsewhere()
})

const id = webhookId('0b6c1f3e-9d52-4c1e-8a4b-2f1d7e9c3a10')
const body = JSON.stringify({ type: 'entry.left', timestamp: '2026-11-25T10:00:00.000Z', data: { id: '2f1d7e9c' } })
const send = (options: Partial<Parameters<typeof webhookChannel>[0]> = {}) =>
  webhookChannel({ url: receiver.url, secret: receiver.secret, ...options })({ id, body })
const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(WebhookDeliveryError)
  return error as WebhookDeliveryError
}

describe('a delivery', () => {
  it('is a signed POST the standardwebhooks verifier accepts: webhook-id, seconds, v1 signature, the JSON body', async () => {
    await send()
    const [delivery] = receiver.deliveries
    expect(delivery).toMatchObject({ id, verified: true, body, status: 200 })
    expect(delivery!.headers['content-type']).toBe('application/json')
    expect(delivery!.headers['webhook-timestamp']).toMatch(/^\d{10}$/)
    expect(delivery!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/)
    expect(id).toBe('msg_0b6c1f3e9d524c1e8a4b2f1d7e9c3a10')
  })

  it('fails the verifier when forged (another secret), replayed (an old timestamp) or tampered (another body)', async () => {
    await send()
    const { headers } = receiver.deliveries[0]!
    const verifier = new Webhook(receiver.secret)
    const plain = {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    }
    expect(verifier.verify(body, plain)).toEqual(JSON.parse(body))
    // Forged: signed with a secret the founders never set.
    const forged = new Webhook(newWebhookSecret()).sign(id, new Date(), body)
    expect(() => verifier.verify(body, { ...plain, 'webhook-signature': forged })).toThrow(WebhookVerificationError)
    // Tampered: the signature of one body on another.
    expect(() => verifier.verify(body.replace('entry.left', 'entry.joined'), plain)).toThrow(WebhookVerificationError)
    // Replayed: a genuine delivery captured and sent again ten minutes later.
    const old = new Date(Date.now() - 10 * 60_000)
    const replayed = { ...plain, 'webhook-timestamp': String(Math.floor(old.getTime() / 1000)), 'webhook-signature': verifier.sign(id, old, body) }
    expect(() => verifier.verify(body, replayed)).toThrow(WebhookVerificationError)
    // Our channel with a stale clock: the receiver refuses it, and the dispatcher would retry.
    await expect(send({ now: () => old })).rejects.toThrow(WebhookDeliveryError)
    expect(receiver.deliveries.at(-1)).toMatchObject({ verified: false, status: 401 })
  })

  it('retries a 5xx, 408 and 429, with nothing of the answer quoted', async () => {
    for (const status of [500, 502, 503, 408, 429]) {
      receiver.answer = () => status
      const error = await failure(send())
      expect(error.final).toBe(false)
      expect(error.message).toBe(`Webhook answered HTTP ${status}.`)
    }
  })

  it('is final on any other 4xx', async () => {
    for (const status of [400, 401, 403, 404, 410, 422]) {
      receiver.answer = () => status
      expect((await failure(send())).final).toBe(true)
    }
  })

  it('does not follow a redirect, and the redirect is final', async () => {
    for (const status of [301, 302, 307, 308]) {
      receiver.answer = () => ({ status, headers: { Location: elsewhere.url } })
      const error = await failure(send())
      expect(error.final).toBe(true)
      expect(error.message).toContain('redirect')
    }
    expect(elsewhere.deliveries).toEqual([])
  })

  it('retries a refused connection and a receiver that does not answer in time', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => resolve(port))
      })
    })
    const refused = await failure(webhookChannel({ url: `http://127.0.0.1:${closed}/`, secret: receiver.secret })({ id, body }))
    expect(refused).toMatchObject({ final: false, message: 'Webhook not delivered: ECONNREFUSED.' })

    const silent = createServer(() => {}).listen(0, '127.0.0.1')
    await new Promise((resolve) => silent.once('listening', resolve))
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}/`
      const timedOut = await failure(webhookChannel({ url, secret: receiver.secret, timeoutMs: 200 })({ id, body }))
      expect(timedOut).toMatchObject({ final: false, message: 'Webhook not delivered: no answer within 0.2 s.' })
    } finally {
      silent.close()
    }
  })
})

describe('the events', () => {
  const entry: ClaimedEntry = {
    id: '5d1e9c1a-8f3b-4a8e-9c0d-1b2a3c4d5e6f',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    project: 'Engines',
    utm_source: 'newsletter',
    utm_medium: null,
    utm_campaign: null,
    referrer_host: null,
    landing_path: '/',
  }
  const payload = (type: WebhookPayload['type'], data: Record<string, unknown>): WebhookPayload => ({
    type,
    occurred_at: '2026-11-25T10:00:00.123456+00:00',
    data,
    language: 'de',
  })

  it('entry.left carries the entry id only: no name, no address', () => {
    const event = webhookEvent(payload('entry.left', { id: entry.id }), null)
    expect(event).toEqual({ type: 'entry.left', timestamp: '2026-11-25T10:00:00.123Z', data: { id: entry.id } })
    const text = JSON.stringify(event)
    expect(text).not.toContain('Ada')
    expect(text).not.toContain('@')
  })

  it('entry.confirmed names the person, their company, language, source, place and referrer', () => {
    expect(webhookEvent(payload('entry.confirmed', { place: 7, referred_by: null, confirmed_at: '2026-11-25T10:00:00+00:00' }), entry)).toEqual({
      type: 'entry.confirmed',
      timestamp: '2026-11-25T10:00:00.123Z',
      data: {
        id: entry.id,
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        company: 'Engines',
        language: 'de',
        source: {
          description: 'campaign newsletter, landed on /',
          utm_source: 'newsletter',
          utm_medium: null,
          utm_campaign: null,
          referrer_host: null,
          landing_path: '/',
        },
        answers: {},
        place: 7,
        referred_by: null,
        confirmed_at: '2026-11-25T10:00:00+00:00',
      },
    })
  })
  it('reward.earned names the person and the rung: its key, kind, status, places and threshold, nothing else', () => {
    const event = webhookEvent(payload('reward.earned', { rung: 'month-free', kind: 'perk', status: 'held', places: null, threshold: 5, extra: 'x' }), entry)
    expect(event).toEqual({
      type: 'reward.earned',
      timestamp: '2026-11-25T10:00:00.123Z',
      data: { id: entry.id, name: 'Ada Lovelace', email: 'ada@example.com', rung: 'month-free', kind: 'perk', status: 'held', places: null, threshold: 5 },
    })
    expect(webhookEvent(payload('reward.earned', { rung: 'skip', kind: 'places', status: 'granted', places: 100, threshold: 1 }), entry).data).toMatchObject({
      kind: 'places',
      status: 'granted',
      places: 100,
    })
    expect(() => webhookEvent(payload('reward.earned', { rung: 'skip' }), null)).toThrow(/no entry/)
  })
})

describe('WAITLIST_WEBHOOK_URL and WAITLIST_WEBHOOK_SECRET', () => {
  const secret = newWebhookSecret()
  const env =
    (url: string | undefined, key: string | undefined, NODE_ENV: 'development' | 'production' = 'development') =>
    () =>
      serverEnv({ NODE_ENV, WAITLIST_WEBHOOK_URL: url, WAITLIST_WEBHOOK_SECRET: key })

  it('accepts https anywhere, and http to this machine in a local run', () => {
    expect(env('https://crm.example.com/hooks', secret, 'production')()).toMatchObject({ webhookUrl: 'https://crm.example.com/hooks', webhookSecret: secret })
    for (const local of ['http://127.0.0.1:8080/h', 'http://localhost:9000/', 'http://[::1]:9000/']) expect(env(local, secret)().webhookUrl).toBe(local)
    expect(env(undefined, undefined, 'production')()).toMatchObject({ webhookUrl: undefined, webhookSecret: undefined })
  })

  it('refuses http to a public host, any other scheme, and http to localhost in a deployed build', () => {
    expect(env('http://crm.example.com/hooks', secret)).toThrow(/WAITLIST_WEBHOOK_URL: must be https/)
    expect(env('http://10.0.0.5/hooks', secret)).toThrow(/WAITLIST_WEBHOOK_URL: must be https/)
    expect(env('http://127.0.0.1.nip.io/hooks', secret)).toThrow(/WAITLIST_WEBHOOK_URL: must be https/)
    expect(env('ftp://crm.example.com/hooks', secret)).toThrow(/WAITLIST_WEBHOOK_URL: must be an https/)
    expect(env('http://localhost:9000/', secret, 'production')).toThrow(/WAITLIST_WEBHOOK_URL: must be https:\/\/ in a deployed build/)
  })

  it('refuses a short secret, one without whsec_, and one that is not base64', () => {
    expect(env('https://crm.example.com/', `whsec_${Buffer.alloc(23, 7).toString('base64')}`)).toThrow(/WAITLIST_WEBHOOK_SECRET: must be whsec_/)
    expect(webhookSecretValid(`whsec_${Buffer.alloc(24, 7).toString('base64')}`)).toBe(true)
    expect(webhookSecretValid(secret.slice('whsec_'.length))).toBe(false)
    expect(webhookSecretValid('whsec_not base64 at all, but long enough to pass a length check')).toBe(false)
  })

  it('wants both or neither', () => {
    expect(env('https://crm.example.com/', undefined)).toThrow(/WAITLIST_WEBHOOK_SECRET: set WAITLIST_WEBHOOK_URL and WAITLIST_WEBHOOK_SECRET together/)
    expect(env(undefined, secret)).toThrow(/WAITLIST_WEBHOOK_URL: set WAITLIST_WEBHOOK_URL and WAITLIST_WEBHOOK_SECRET together/)
  })
})
