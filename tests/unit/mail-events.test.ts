/**
 * The mail providers' webhooks (components/waitlist/mail-events/), each with its provider's
 * documented payload: Resend signed with Svix (Standard Webhooks), Postmark behind basic auth,
 * Amazon SES through SNS with its message signature (a certificate made here with openssl, served
 * by an injected fetch: the SNS host rule is still enforced). Signed, forged, replayed (an old
 * timestamp, and the same event id twice through the route), out of order, and odd headers.
 */
import { execFileSync } from 'node:child_process'
import { createSign } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { handleMailEvent, type MailEventSettings } from '@/components/waitlist/mail-events/handle'
import { hasBasicAuth, verifyPostmark } from '@/components/waitlist/mail-events/postmark'
import { verifyResend } from '@/components/waitlist/mail-events/resend'
import { clearSnsCertificates, isSnsHost, snsStringToSign, verifySes } from '@/components/waitlist/mail-events/ses'
import type { MailEvent } from '@/components/waitlist/mail-events/event'

const RESEND_SECRET = `whsec_${Buffer.from('resend-test-secret-of-32-bytes!!').toString('base64')}`

// Resend's documented email.bounced payload (resend.com/docs/dashboard/webhooks/event-types).
const resendBounce = (type = 'Permanent') =>
  JSON.stringify({
    type: 'email.bounced',
    created_at: '2026-12-02T11:00:00.000Z',
    data: {
      created_at: '2026-12-02T10:59:58.000Z',
      email_id: '56761188-7520-42d8-8898-ff6fc54ce618',
      from: 'Heardly <hello@heardly.example>',
      to: ['delivered@resend.dev'],
      subject: 'Confirm your place',
      bounce: { message: 'The recipient does not exist.', subType: 'General', type },
    },
  })

function resendHeaders(body: string, { id = 'msg_2Lh9KRb6pzN8zkdtpkYrtUDW', at = new Date(), secret = RESEND_SECRET } = {}) {
  const signature = new Webhook(secret).sign(id, at, body)
  return new Headers({ 'svix-id': id, 'svix-timestamp': String(Math.floor(at.getTime() / 1000)), 'svix-signature': signature })
}

describe('Resend (Svix)', () => {
  it('accepts a signed bounce, hard for Permanent and soft for Transient', () => {
    const body = resendBounce()
    expect(verifyResend(body, resendHeaders(body), RESEND_SECRET)).toEqual({
      ok: true,
      events: [
        { provider: 'resend', id: 'msg_2Lh9KRb6pzN8zkdtpkYrtUDW', kind: 'hard_bounce', email: 'delivered@resend.dev', occurredAt: '2026-12-02T11:00:00.000Z' },
      ],
    })
    const soft = resendBounce('Transient')
    expect(verifyResend(soft, resendHeaders(soft), RESEND_SECRET)).toMatchObject({ ok: true, events: [{ kind: 'soft_bounce' }] })
    const complaint = JSON.stringify({ type: 'email.complained', created_at: '2026-12-02T11:00:00.000Z', data: { to: ['a@b.example'] } })
    expect(verifyResend(complaint, resendHeaders(complaint), RESEND_SECRET)).toMatchObject({ ok: true, events: [{ kind: 'complaint', email: 'a@b.example' }] })
  })

  it('refuses a forged signature, another secret, a changed body and missing headers', () => {
    const body = resendBounce()
    const headers = resendHeaders(body)
    expect(verifyResend(body.replace('delivered@', 'someone@'), headers, RESEND_SECRET)).toMatchObject({ ok: false, status: 401 })
    const other = `whsec_${Buffer.from('another-secret-of-32-bytes-long!').toString('base64')}`
    expect(verifyResend(body, resendHeaders(body, { secret: other }), RESEND_SECRET)).toMatchObject({ ok: false, status: 401 })
    const forged = new Headers(headers)
    forged.set('svix-signature', `v1,${Buffer.alloc(32).toString('base64')}`)
    expect(verifyResend(body, forged, RESEND_SECRET)).toMatchObject({ ok: false, status: 401 })
    for (const name of ['svix-id', 'svix-timestamp', 'svix-signature']) {
      const missing = new Headers(headers)
      missing.delete(name)
      expect(verifyResend(body, missing, RESEND_SECRET)).toMatchObject({ ok: false, status: 401 })
    }
  })

  it('refuses a replay with an old timestamp, and one from the future', () => {
    const body = resendBounce()
    expect(verifyResend(body, resendHeaders(body, { at: new Date(Date.now() - 10 * 60_000) }), RESEND_SECRET)).toMatchObject({ ok: false, status: 401 })
    expect(verifyResend(body, resendHeaders(body, { at: new Date(Date.now() + 10 * 60_000) }), RESEND_SECRET)).toMatchObject({ ok: false, status: 401 })
  })

  it('takes one valid signature among several (a secret being rotated), and odd header case', () => {
    const body = resendBounce()
    const headers = resendHeaders(body)
    const rotated = new Headers({
      'SVIX-ID': headers.get('svix-id')!,
      'Svix-Timestamp': headers.get('svix-timestamp')!,
      'svix-signature': `v1,${Buffer.alloc(32).toString('base64')} ${headers.get('svix-signature')}`,
    })
    expect(verifyResend(body, rotated, RESEND_SECRET)).toMatchObject({ ok: true })
  })
})

// Postmark's documented bounce and spam complaint webhooks (postmarkapp.com/developer/webhooks).
const postmarkBounce = (type = 'HardBounce', id = 4323372036854775807n) =>
  `{"RecordType":"Bounce","MessageStream":"outbound","ID":${id},"Type":"${type}","TypeCode":1,"Name":"Hard bounce","Tag":"","MessageID":"883953f4-6105-42a2-a16a-77a8eac79483","ServerID":23,"Description":"The server was unable to deliver your message (ex: unknown user, mailbox not found).","Details":"Test bounce details","Email":"john@example.com","From":"sender@example.com","BouncedAt":"2026-12-02T11:00:00Z","DumpAvailable":true,"Inactive":true,"CanActivate":true,"Subject":"Test subject","Content":"","Metadata":{}}`

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
const PM_USER = 'postmark'
const PM_PASSWORD = 'a-long-password-for-postmark-hooks'

describe('Postmark (basic auth)', () => {
  it('accepts an authenticated hard bounce; keeps the 64-bit ID exactly', () => {
    expect(verifyPostmark(postmarkBounce(), basic(PM_USER, PM_PASSWORD), PM_USER, PM_PASSWORD)).toMatchObject({
      ok: true,
      events: [{ provider: 'postmark', kind: 'hard_bounce', email: 'john@example.com', occurredAt: '2026-12-02T11:00:00.000Z' }],
    })
  })

  it('tells hard from soft and reads complaints and deliveries', () => {
    const kind = (body: string) => {
      const result = verifyPostmark(body, basic(PM_USER, PM_PASSWORD), PM_USER, PM_PASSWORD)
      return result.ok ? result.events[0]!.kind : result.reason
    }
    expect(kind(postmarkBounce('SoftBounce'))).toBe('soft_bounce')
    expect(kind(postmarkBounce('Transient'))).toBe('soft_bounce')
    expect(kind(postmarkBounce('BadEmailAddress'))).toBe('hard_bounce')
    expect(kind(`{"RecordType":"SpamComplaint","ID":42,"Type":"SpamComplaint","Email":"john@example.com","BouncedAt":"2026-12-02T11:00:00Z"}`)).toBe(
      'complaint',
    )
    expect(kind(`{"RecordType":"Delivery","MessageID":"883953f4","Recipient":"john@example.com","DeliveredAt":"2026-12-02T11:00:00Z"}`)).toBe('delivered')
  })

  it('refuses a wrong or missing password, another user, and odd Authorization headers', () => {
    for (const header of [
      null,
      '',
      basic(PM_USER, 'wrong'),
      basic('someone', PM_PASSWORD),
      basic(PM_USER, `${PM_PASSWORD}x`),
      `Bearer ${PM_PASSWORD}`,
      'Basic',
      'Basic !!!',
      `Basic ${Buffer.from(PM_PASSWORD).toString('base64')}`,
    ]) {
      expect(hasBasicAuth(header, PM_USER, PM_PASSWORD)).toBe(false)
      expect(verifyPostmark(postmarkBounce(), header, PM_USER, PM_PASSWORD)).toMatchObject({ ok: false, status: 401 })
    }
    expect(hasBasicAuth(`basic   ${Buffer.from(`${PM_USER}:${PM_PASSWORD}`).toString('base64')}`, PM_USER, PM_PASSWORD)).toBe(true)
  })

  it('refuses a payload without an id (nothing to refuse a replay by)', () => {
    expect(
      verifyPostmark('{"RecordType":"Bounce","Type":"HardBounce","Email":"a@b.example"}', basic(PM_USER, PM_PASSWORD), PM_USER, PM_PASSWORD),
    ).toMatchObject({
      ok: false,
      status: 400,
    })
  })
})

// A certificate and key made here, standing in for SNS's (SigningCertURL still on AWS's host).
const folder = mkdtempSync(path.join(tmpdir(), 'sns-cert-'))
execFileSync(
  'openssl',
  [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    path.join(folder, 'key.pem'),
    '-out',
    path.join(folder, 'cert.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=sns.amazonaws.com',
  ],
  {
    stdio: 'ignore',
  },
)
const KEY = readFileSync(path.join(folder, 'key.pem'), 'utf8')
const CERT = readFileSync(path.join(folder, 'cert.pem'), 'utf8')
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:heardly-ses-events'
const CERT_URL = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-9c6465fa7f48f5cacd23014631ec1136.pem'

function snsMessage(fields: Record<string, unknown>, { version = '1', key = KEY } = {}) {
  const message: Record<string, unknown> = {
    Type: 'Notification',
    MessageId: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324',
    TopicArn: TOPIC,
    Timestamp: new Date().toISOString(),
    SignatureVersion: version,
    SigningCertURL: CERT_URL,
    UnsubscribeURL: 'https://sns.eu-west-1.amazonaws.com/?Action=Unsubscribe&SubscriptionArn=x',
    ...fields,
  }
  const signer = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
  signer.update(snsStringToSign(message)!)
  message.Signature = signer.sign(key, 'base64')
  return message
}

// SES's documented bounce notification (docs.aws.amazon.com/ses/latest/dg/notification-contents.html).
const sesBounce = (bounceType = 'Permanent') =>
  JSON.stringify({
    notificationType: 'Bounce',
    bounce: {
      bounceType,
      bounceSubType: 'General',
      bouncedRecipients: [{ emailAddress: 'jane@example.com', status: '5.1.1', action: 'failed', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
      timestamp: '2026-12-02T11:00:00.000Z',
      feedbackId: '00000137860315fd-869464a4-8680-4114-98d3-716fe35851f9-000000',
    },
    mail: { timestamp: '2026-12-02T10:59:59.000Z', source: 'hello@heardly.example', messageId: '00000137860315fd-34208509', destination: ['jane@example.com'] },
  })

describe('Amazon SES through SNS', () => {
  let fetched: string[] = []
  const fetchText = async (url: string) => {
    fetched.push(url)
    return CERT
  }
  beforeEach(() => {
    fetched = []
    clearSnsCertificates()
  })

  it('accepts a signed notification (SignatureVersion 1 and 2), fetching the certificate once', async () => {
    const one = await verifySes(JSON.stringify(snsMessage({ Message: sesBounce() })), { topicArn: TOPIC, fetchText })
    expect(one).toEqual({
      ok: true,
      events: [
        { provider: 'ses', id: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324', kind: 'hard_bounce', email: 'jane@example.com', occurredAt: '2026-12-02T11:00:00.000Z' },
      ],
    })
    const two = await verifySes(JSON.stringify(snsMessage({ Message: sesBounce('Transient'), Subject: 'Amazon SES Email Event' }, { version: '2' })), {
      topicArn: TOPIC,
      fetchText,
    })
    expect(two).toMatchObject({ ok: true, events: [{ kind: 'soft_bounce' }] })
    expect(fetched).toEqual([CERT_URL])
  })

  it('refuses a certificate URL off SNS’s https host, whatever signs it', async () => {
    for (const url of [
      'http://sns.eu-west-1.amazonaws.com/cert.pem',
      'https://sns.eu-west-1.amazonaws.com.evil.example/cert.pem',
      'https://evil.example/sns.eu-west-1.amazonaws.com/cert.pem',
      'https://s3.eu-west-1.amazonaws.com/cert.pem',
      'https://sns.eu-west-1.amazonaws.com:8443/cert.pem',
      'https://user@sns.eu-west-1.amazonaws.com/cert.pem',
      'https://sns.eu-west-1.amazonaws.com/cert.txt',
    ]) {
      const message = snsMessage({ Message: sesBounce(), SigningCertURL: url })
      expect(await verifySes(JSON.stringify(message), { topicArn: TOPIC, fetchText }), url).toMatchObject({ ok: false, status: 401 })
    }
    expect(fetched).toEqual([])
    expect(isSnsHost('https://sns.us-gov-west-1.amazonaws.com/x.pem')).toBe(true)
    expect(isSnsHost('https://sns.cn-north-1.amazonaws.com.cn/x.pem')).toBe(true)
  })

  it('refuses a forged message: a changed field, another key, an unknown SignatureVersion', async () => {
    const message = snsMessage({ Message: sesBounce() })
    expect(await verifySes(JSON.stringify({ ...message, Message: sesBounce().replace('jane@', 'john@') }), { topicArn: TOPIC, fetchText })).toMatchObject({
      ok: false,
      reason: 'bad signature',
    })
    const otherKey = execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString()
    expect(await verifySes(JSON.stringify(snsMessage({ Message: sesBounce() }, { key: otherKey })), { topicArn: TOPIC, fetchText })).toMatchObject({
      ok: false,
      reason: 'bad signature',
    })
    expect(await verifySes(JSON.stringify({ ...message, SignatureVersion: '3' }), { topicArn: TOPIC, fetchText })).toMatchObject({ ok: false, status: 401 })
    expect(await verifySes('not json', { topicArn: TOPIC, fetchText })).toMatchObject({ ok: false, status: 400 })
  })

  it('refuses a replay more than an hour old, and another topic', async () => {
    const old = snsMessage({ Message: sesBounce(), Timestamp: new Date(Date.now() - 2 * 3600_000).toISOString() })
    expect(await verifySes(JSON.stringify(old), { topicArn: TOPIC, fetchText })).toMatchObject({ ok: false, reason: 'timestamp too old or too new' })
    const other = snsMessage({ Message: sesBounce(), TopicArn: 'arn:aws:sns:eu-west-1:999999999999:other' })
    expect(await verifySes(JSON.stringify(other), { topicArn: TOPIC, fetchText })).toMatchObject({ ok: false, status: 403 })
  })

  it('confirms a subscription by fetching its SubscribeURL on SNS’s host only', async () => {
    const subscribe = 'https://sns.eu-west-1.amazonaws.com/?Action=ConfirmSubscription&TopicArn=x&Token=t'
    const confirmation = snsMessage({ Type: 'SubscriptionConfirmation', Message: 'You have chosen to subscribe…', Token: 't', SubscribeURL: subscribe })
    expect(await verifySes(JSON.stringify(confirmation), { topicArn: TOPIC, fetchText })).toEqual({ ok: true, events: [], answer: 'subscribed' })
    expect(fetched).toEqual([CERT_URL, subscribe])
    const elsewhere = snsMessage({ Type: 'SubscriptionConfirmation', Message: 'x', Token: 't', SubscribeURL: 'https://evil.example/confirm' })
    expect(await verifySes(JSON.stringify(elsewhere), { topicArn: TOPIC, fetchText })).toMatchObject({ ok: false, status: 400 })
  })

  it('reads complaints and one event per recipient', async () => {
    const complaint = JSON.stringify({
      notificationType: 'Complaint',
      complaint: {
        complainedRecipients: [{ emailAddress: 'a@example.com' }, { emailAddress: 'b@example.com' }],
        timestamp: '2026-12-02T11:00:00Z',
        feedbackId: 'f',
      },
      mail: {},
    })
    expect(await verifySes(JSON.stringify(snsMessage({ Message: complaint })), { topicArn: TOPIC, fetchText })).toMatchObject({
      ok: true,
      events: [
        { id: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324:0', kind: 'complaint', email: 'a@example.com' },
        { id: '22b80b92-fdea-4c2c-8f9d-bdfb0c7bf324:1', kind: 'complaint', email: 'b@example.com' },
      ],
    })
  })
})

describe('the route (handleMailEvent)', () => {
  // The database's answer, as public.waitlist_mail_event gives it: an id seen before is a replay.
  const seen = new Set<string>()
  const recorded: MailEvent[] = []
  const record = async (event: MailEvent) => {
    const key = `${event.provider}:${event.id}`
    if (seen.has(key)) return 'replayed'
    seen.add(key)
    recorded.push(event)
    return 'suppressed'
  }
  const settings: MailEventSettings = { resendSecret: RESEND_SECRET, postmark: { user: PM_USER, password: PM_PASSWORD } }
  const post = (provider: string, body: string, headers: HeadersInit) =>
    handleMailEvent(provider, new Request(`https://heardly.example/api/mail-events/${provider}`, { method: 'POST', body, headers }), settings, record)

  it('records a signed event once: its replay within the timestamp window answers replayed', async () => {
    const body = resendBounce()
    const headers = resendHeaders(body, { id: 'msg_replay' })
    expect(await (await post('resend', body, headers)).json()).toEqual({ ok: true, results: ['suppressed'] })
    expect(await (await post('resend', body, headers)).json()).toEqual({ ok: true, results: ['replayed'] })
    expect(recorded.filter((event) => event.id === 'msg_replay')).toHaveLength(1)
  })

  it('answers 401 to a forged one, 404 to an unconfigured or unknown provider, 413 to a huge body', async () => {
    expect((await post('postmark', postmarkBounce(), { authorization: basic(PM_USER, 'nope') })).status).toBe(401)
    expect((await post('ses', '{}', {})).status).toBe(404)
    expect((await post('sendgrid', '{}', {})).status).toBe(404)
    expect((await post('postmark', 'x'.repeat(300 * 1024), { authorization: basic(PM_USER, PM_PASSWORD) })).status).toBe(413)
  })

  it('answers 503 when the database fails, so the provider retries', async () => {
    const failing = vi.fn(async () => {
      throw new Error('down')
    })
    const response = await handleMailEvent(
      'postmark',
      new Request('https://heardly.example/api/mail-events/postmark', {
        method: 'POST',
        body: postmarkBounce(),
        headers: { authorization: basic(PM_USER, PM_PASSWORD) },
      }),
      settings,
      failing,
    )
    expect(response.status).toBe(503)
  })
})
