/**
 * The outbox dispatcher end to end below the browser: sign-ups through the REST API (the local
 * double, real Postgres in WASM with every migration), the dispatcher's supabase-js store with the
 * service-role key, real SMTP into maildev, and a local HTTP server standing in for Slack. SMTP
 * goes down and comes back, the dispatcher "crashes" between sending and marking, and the Slack
 * setting is absent or present. The founders' webhook goes to a real receiver that verifies it with
 * standardwebhooks, after a confirmation made with the link read from maildev.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'
import { dispatchOutbox, type DispatchOptions, type OutboxStore } from '@/components/waitlist/outbox/dispatch'
import { smtpEmailChannel } from '@/components/waitlist/outbox/email'
import { slackWebhookChannel } from '@/components/waitlist/outbox/slack'
import { serviceClient } from '@/lib/supabase/service'
import { supabaseOutboxStore } from '@/components/waitlist/outbox/store'
import { hashToken } from '@/components/waitlist/outbox/token'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'
import { startTestMail } from '../helpers/maildev'
import { webhooks } from '../helpers/waitlist-db'
import { webhookChannel, webhookId } from '@/components/waitlist/outbox/webhook'
import { startWebhookReceiver } from '@/tools/test/webhook-receiver'

const copy = seedEmailCopy()
const SITE = 'https://heardly.example'

let supabase: LocalSupabase
let mail: Awaited<ReturnType<typeof startTestMail>>
let store: OutboxStore
let slackServer: Server
let slackUrl: string
const slackBodies: unknown[] = []
let slackStatus = 200

beforeAll(async () => {
  supabase = await startLocalSupabase({ port: 0 })
  mail = await startTestMail()
  store = supabaseOutboxStore(serviceClient(supabase.url, supabase.serviceRoleKey))
  slackServer = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    request.on('end', () => {
      slackBodies.push(JSON.parse(body))
      response.writeHead(slackStatus, { 'Content-Type': 'text/plain' }).end(slackStatus === 200 ? 'ok' : 'no_service')
    })
  })
  await new Promise<void>((resolve) => slackServer.listen(0, '127.0.0.1', resolve))
  slackUrl = `http://127.0.0.1:${(slackServer.address() as AddressInfo).port}/services/T000/B000/XXXX`
})

afterAll(async () => {
  await new Promise((resolve) => slackServer?.close(resolve))
  await mail?.stop()
  await supabase?.close()
})

beforeEach(async () => {
  await supabase.db.exec(
    'delete from public.waitlist; delete from public.waitlist_outbox; delete from private.waitlist_recent_signups; delete from private.waitlist_api_attempts; delete from private.waitlist_mail_log;',
  )
  // The e-mail and Slack figures below count those messages alone; the webhooks' describe turns them on.
  await webhooks(supabase.db, false)
  await mail.start()
  await mail.clear()
  slackBodies.length = 0
  slackStatus = 200
})

const options = (overrides: Partial<DispatchOptions> = {}): DispatchOptions => ({
  store,
  email: smtpEmailChannel(mail.smtpUrl, 'waitlist@example.com'),
  slack: null,
  slackIncludeEmail: false,
  copy: async () => copy,
  appUrl: async () => 'https://app.heardly.example',
  siteUrl: SITE,
  ...overrides,
})

let counter = 0
async function signUp(fields: Record<string, string> = {}) {
  const email = `visitor${++counter}@dispatch.test`
  const anon = createClient(supabase.url, supabase.anonKey, { auth: { persistSession: false } })
  const { error, status } = await anon.from('waitlist').insert({ name: 'Ada Lovelace', email, project: 'Analytical Engines', ...fields })
  expect(error).toBeNull()
  expect(status).toBe(201)
  return email
}

const outbox = async () =>
  (
    await supabase.db.query<{ kind: string; status: string; attempts: number; last_error: string | null }>(
      'select kind, status, attempts, last_error from public.waitlist_outbox order by created_at',
    )
  ).rows

const linkIn = (text: string) => {
  const match = /https:\/\/heardly\.example\/waitlist\/confirm#token=([A-Za-z0-9_-]{43})/.exec(text)
  if (!match) throw new Error(`no confirmation link in: ${text}`)
  return { url: match[0], token: match[1] as string }
}

async function confirmAsVisitor(token: string) {
  const anon = createClient(supabase.url, supabase.anonKey, { auth: { persistSession: false } })
  const { data, error } = await anon.rpc('waitlist_confirm', { token })
  expect(error).toBeNull()
  return data as string
}

describe('the confirmation e-mail', () => {
  it('goes out once per sign-up, from the sender in Sanity, with HTML and plain-text parts and no images', async () => {
    const email = await signUp()
    const report = await dispatchOutbox(options())
    expect(report).toMatchObject({ claimed: 1, sent: 1, failed: 0 })
    const inbox = await mail.inbox()
    expect(inbox).toHaveLength(1)
    const [message] = inbox
    // Nothing the visitor typed: the address has not proven it wants our mail (no display name, no greeting by name).
    expect(message?.to).toEqual([{ address: email, name: '' }])
    expect(message?.from).toEqual([{ address: 'waitlist@example.com', name: copy.senderName }])
    expect(message?.subject).toBe(copy.subject)
    expect(message?.html).toContain(copy.previewText)
    expect(message?.html).toContain(copy.buttonLabel)
    expect(message?.html).not.toMatch(/<img/i)
    expect(message?.text).toContain(copy.anonymousGreeting)
    expect(`${message?.html} ${message?.text} ${message?.subject}`).not.toMatch(/Ada|Lovelace|Analytical/)
    expect(message?.text).toContain(copy.linkHint)
    expect(linkIn(message?.text ?? '').url).toBe(linkIn(message?.html ?? '').url)
    // The outbox id is the Message-ID: one key per message.
    expect(message?.headers['message-id']).toMatch(/^<[0-9a-f-]{36}@example\.com>$/)
    expect(await outbox()).toMatchObject([{ kind: 'confirmation_email', status: 'sent', attempts: 1 }])
    expect(await dispatchOutbox(options())).toMatchObject({ claimed: 0, sent: 0 })
    expect(await mail.inbox()).toHaveLength(1)
  })

  it('carries a token the database stores only as a hash, and its link confirms the entry once', async () => {
    const email = await signUp()
    await dispatchOutbox(options())
    const { token } = linkIn((await mail.inbox())[0]?.text ?? '')
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    const { rows } = await supabase.db.query<{ token_hash: string; dump: string }>(
      `select k.token_hash, w::text || k::text as dump from public.waitlist w join private.waitlist_tokens k on k.entry_id = w.id where w.email = $1`,
      [email],
    )
    expect(rows.map((row) => row.token_hash)).toEqual([hashToken(token)])
    expect(rows[0]?.dump).not.toContain(token)
    expect(await confirmAsVisitor(token)).toBe('confirmed')
    expect(await confirmAsVisitor(token)).toBe('already_confirmed')
  })

  it('is retried after the SMTP server was down, and arrives exactly once when it is back (nothing lost)', async () => {
    const email = await signUp()
    await mail.stop()
    const down = await dispatchOutbox(options())
    expect(down).toMatchObject({ claimed: 1, sent: 0, failed: 1 })
    expect(down.errors[0]).toMatch(/ECONNREFUSED/)
    expect(await outbox()).toMatchObject([{ status: 'pending', attempts: 1, last_error: expect.stringMatching(/ECONNREFUSED/) }])

    await mail.start()
    // Backoff: not due yet.
    expect(await dispatchOutbox(options())).toMatchObject({ claimed: 0 })
    // Time passes (the first retry waits 30 s).
    await supabase.db.exec(`update public.waitlist_outbox set available_at = now() where status = 'pending'`)
    expect(await dispatchOutbox(options())).toMatchObject({ claimed: 1, sent: 1 })
    const inbox = await mail.inbox()
    expect(inbox.map((message) => message.to[0]?.address)).toEqual([email])
    expect(await outbox()).toMatchObject([{ status: 'sent', attempts: 2, last_error: null }])
    // The link of the retried e-mail works.
    expect(await confirmAsVisitor(linkIn(inbox[0]?.text ?? '').token)).toBe('confirmed')
  })

  it('is not sent twice when the dispatcher dies between sending and marking', async () => {
    await signUp()
    const crashing: OutboxStore = {
      ...store,
      complete: async () => {
        throw new Error('simulated crash: the process died before marking the message sent')
      },
    }
    await expect(dispatchOutbox(options({ store: crashing }))).rejects.toThrow(/simulated crash/)
    expect(await mail.inbox()).toHaveLength(1)
    expect(await outbox()).toMatchObject([{ status: 'sending' }])

    // Restarted at once: the lease still holds, nothing is claimed.
    expect(await dispatchOutbox(options())).toMatchObject({ claimed: 0, sent: 0 })
    // Restarted after the lease ran out: the message is in doubt, and not sent again.
    await supabase.db.exec(`update public.waitlist_outbox set lease_until = now() - interval '1 second' where status = 'sending'`)
    expect(await dispatchOutbox(options())).toMatchObject({ claimed: 0, sent: 0 })
    expect(await outbox()).toMatchObject([{ status: 'in_doubt' }])
    expect(await mail.inbox()).toHaveLength(1)
  })

  it('lets two dispatchers run at once without sending anything twice', async () => {
    for (let i = 0; i < 6; i++) await signUp()
    const reports = await Promise.all([dispatchOutbox(options()), dispatchOutbox(options()), dispatchOutbox(options())])
    expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(6)
    const addresses = (await mail.inbox()).map((message) => message.to[0]?.address)
    expect(new Set(addresses).size).toBe(6)
    expect(addresses).toHaveLength(6)
  })
})

describe('Slack', () => {
  async function confirmedEntry(fields: Record<string, string> = {}, dispatch: Partial<DispatchOptions> = {}) {
    const email = await signUp(fields)
    await dispatchOutbox(options(dispatch))
    const message = (await mail.inbox()).find((item) => item.to[0]?.address === email)
    expect(await confirmAsVisitor(linkIn(message?.text ?? '').token)).toBe('confirmed')
    return email
  }

  it('gets name, company, how they found us and the running total, without the e-mail address by default', async () => {
    const slack = { slack: slackWebhookChannel(slackUrl) }
    await confirmedEntry({}, slack)
    const email = await confirmedEntry(
      { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'launch', referrer_host: 'news.example', landing_path: '/pricing' },
      slack,
    )
    const report = await dispatchOutbox(options(slack))
    expect(report).toMatchObject({ sent: 1, failed: 0 })
    expect(slackBodies).toHaveLength(2)
    const last = JSON.stringify(slackBodies[1])
    expect(last).toContain('2 confirmed so far')
    expect(last).toContain('Ada Lovelace')
    expect(last).toContain('Analytical Engines')
    expect(last).toContain('campaign newsletter / email / launch, from news.example, landed on /pricing')
    expect(JSON.stringify(slackBodies)).not.toContain('@dispatch.test')
    expect(JSON.stringify(slackBodies[0])).toContain('1 confirmed so far')
    expect(email).toMatch(/@dispatch\.test$/)
  })

  it('gets the e-mail address only when the owner turns it on', async () => {
    const email = await confirmedEntry()
    await dispatchOutbox(options({ slack: slackWebhookChannel(slackUrl), slackIncludeEmail: true }))
    expect(JSON.stringify(slackBodies[0])).toContain(email)
  })

  it('shows what a visitor wrote as literal text: no mention, link, formatting or field can be forged', async () => {
    const name = '<!channel> <https://evil.example|click> *E-mail* _x_ ~y~ `z` :tada: & co'
    const project = 'BigCorp https://evil.example/x <@U123>'
    await confirmedEntry({ name, project })
    await dispatchOutbox(options({ slack: slackWebhookChannel(slackUrl) }))
    const body = slackBodies[0] as {
      text: string
      blocks: { type: string; text?: { type: string; text: string }; fields?: { type: string; text: string; emoji?: boolean }[] }[]
    }
    // The notification text (parsed as mrkdwn) has none of it.
    expect(body.text).not.toMatch(/evil|channel|BigCorp/)
    const objects = body.blocks.flatMap((block) => [...(block.text ? [block.text] : []), ...(block.fields ?? [])])
    for (const value of [name, project]) {
      const holding = objects.filter((object) => object.text.includes('evil.example'))
      expect(holding.length).toBeGreaterThan(0)
      expect(objects.filter((object) => object.text === value)).toEqual([{ type: 'plain_text', text: value, emoji: false }])
    }
    for (const object of objects.filter((object) => object.type === 'mrkdwn')) expect(object.text).not.toMatch(/evil|channel|BigCorp|tada/)
  })

  it('is retried when the webhook fails', async () => {
    await confirmedEntry()
    slackStatus = 500
    expect(await dispatchOutbox(options({ slack: slackWebhookChannel(slackUrl) }))).toMatchObject({ failed: 1 })
    expect((await outbox()).find((row) => row.kind === 'slack_confirmed')).toMatchObject({ status: 'pending', attempts: 1 })
  })

  it('without the setting: nothing is posted, nothing fails, the message is marked skipped', async () => {
    await confirmedEntry()
    const report = await dispatchOutbox(options({ slack: null }))
    expect(report).toMatchObject({ skipped: 1, failed: 0, errors: [] })
    expect(slackBodies).toEqual([])
    const { rows } = await supabase.db.query<{ status: string; note: string }>(`select status, note from public.waitlist_outbox where kind = 'slack_confirmed'`)
    expect(rows).toEqual([{ status: 'skipped', note: 'SLACK_WAITLIST_WEBHOOK_URL is not set.' }])
  })
})

describe("the founders' webhook", () => {
  it('confirmed through the e-mailed link: entry.confirmed reaches a receiver that answers 500, then 200, with one webhook-id, kept once', async () => {
    await webhooks(supabase.db, true)
    const receiver = await startWebhookReceiver({ answer: ({ attempt }) => (attempt === 1 ? 500 : 200) })
    try {
      const webhook = webhookChannel({ url: receiver.url, secret: receiver.secret })
      const email = await signUp()
      expect(await dispatchOutbox(options({ webhook }))).toMatchObject({ sent: 1, failed: 0 })
      expect(await confirmAsVisitor(linkIn((await mail.inbox())[0]?.text ?? '').token)).toBe('confirmed')
      expect(await dispatchOutbox(options({ webhook }))).toMatchObject({ failed: 1 })
      await supabase.db.exec("update public.waitlist_outbox set available_at = now() where kind = 'webhook'")
      expect(await dispatchOutbox(options({ webhook }))).toMatchObject({ sent: 1, failed: 0 })
      const [row] = (await supabase.db.query<{ id: string }>("select id from public.waitlist_outbox where kind = 'webhook'")).rows
      expect(receiver.deliveries.map((delivery) => [delivery.id, delivery.status, delivery.verified])).toEqual([
        [webhookId(row!.id), 500, true],
        [webhookId(row!.id), 200, true],
      ])
      expect([...receiver.events.values()]).toMatchObject([
        { type: 'entry.confirmed', data: { name: 'Ada Lovelace', email, company: 'Analytical Engines', place: 1 } },
      ])
      expect(receiver.duplicates()).toBe(0)
    } finally {
      await receiver.close()
    }
  })
})
