/**
 * The fault suite's outbox rows (issue #50): the dispatcher against the real pieces — the local
 * Supabase API (PostgREST's stand-in over PGlite, every migration), maildev's SMTP, a Standard
 * Webhooks receiver — with faults injected in front of them by a TCP proxy (tests/helpers/fault-proxy.ts)
 * or by the receiver itself: the webhook receiver hung and slow, SMTP hung, the database
 * unreachable or hung mid-dispatch. For each: what the person waiting for their link sees (when it
 * arrives), that no e-mail or webhook is lost or sent twice (a webhook at least once, with one
 * webhook-id), and that dispatch resumes by itself once the fault ends, with the times measured.
 *
 * Times are the deployment's scaled by FAULTS_SCALE (0.1 by default, so the suite takes seconds:
 * a 1 s webhook timeout for 10 s); `FAULTS_SCALE=1` measures the real ones. Every wait is bounded.
 */
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'
import { dispatchOutbox, RUN_BUDGET_MS, type DispatchOptions, type DispatchReport, type OutboxStore } from '@/components/waitlist/outbox/dispatch'
import { SMTP_TIMEOUTS, smtpEmailChannel, type EmailChannel } from '@/components/waitlist/outbox/email'
import { serviceClient } from '@/lib/supabase/service'
import { STORE_TIMEOUT_MS, supabaseOutboxStore } from '@/components/waitlist/outbox/store'
import { WEBHOOK_TIMEOUT_MS, webhookChannel, webhookId } from '@/components/waitlist/outbox/webhook'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'
import { startWebhookReceiver, type WebhookReceiver } from '@/tools/test/webhook-receiver'
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy'
import { startTestMail } from '../helpers/maildev'
import { webhooks } from '../helpers/waitlist-db'

const SCALE = Number(process.env.FAULTS_SCALE ?? 0.1)
const scaled = (ms: number) => Math.round(ms * SCALE)
const copy = seedEmailCopy()
const HUNG = { status: 200, delayMs: Infinity }

let supabase: LocalSupabase
let mail: Awaited<ReturnType<typeof startTestMail>>
let receiver: WebhookReceiver
/** In front of the Supabase API. */
let api: FaultProxy
/** In front of maildev's SMTP port. */
let smtp: FaultProxy

beforeAll(async () => {
  supabase = await startLocalSupabase({ port: 0 })
  mail = await startTestMail()
  receiver = await startWebhookReceiver()
  api = await startFaultProxy(Number(new URL(supabase.url).port))
  smtp = await startFaultProxy(Number(new URL(mail.smtpUrl).port))
  // One e-mail first: the first render, SMTP connection and API client of a process take about a
  // second, which is no fault's doing and would blur the delays measured below.
  await webhooks(supabase.db, false)
  await signUp()
  await dispatchOutbox(options())
})

afterAll(async () => {
  await api?.close()
  await smtp?.close()
  await receiver?.close()
  await mail?.stop()
  await supabase?.close()
})

beforeEach(async () => {
  await api.set('pass')
  await smtp.set('pass')
  await supabase.db.exec(`
    delete from public.waitlist; delete from public.waitlist_outbox; delete from private.waitlist_recent_signups;
    delete from private.waitlist_api_attempts; delete from private.waitlist_mail_log;
    update private.waitlist_confirmation_settings set lease = interval '2 minutes', retry_base_seconds = 30;
    update private.waitlist_webhook_settings set retry_base_seconds = 10;
    update private.waitlist_mail_caps set emails_per_hour = 100000;
  `)
  await webhooks(supabase.db, true)
  await mail.clear()
  receiver.deliveries.length = 0
  receiver.events.clear()
  receiver.answer = () => 200
})

/** The dispatcher as configured.ts builds it, through the fault proxies, its timeouts scaled. */
function options(overrides: Partial<DispatchOptions> = {}): DispatchOptions {
  return {
    store: supabaseOutboxStore(serviceClient(`http://127.0.0.1:${api.port}`, supabase.serviceRoleKey, { timeoutMs: scaled(STORE_TIMEOUT_MS) })),
    email: smtpEmailChannel(`smtp://127.0.0.1:${smtp.port}`, 'waitlist@example.com', {
      connectionTimeout: scaled(SMTP_TIMEOUTS.connectionTimeout),
      greetingTimeout: scaled(SMTP_TIMEOUTS.greetingTimeout),
      socketTimeout: scaled(SMTP_TIMEOUTS.socketTimeout),
    }),
    slack: null,
    slackIncludeEmail: false,
    webhook: webhookChannel({ url: receiver.url, secret: receiver.secret, timeoutMs: scaled(WEBHOOK_TIMEOUT_MS) }),
    copy: async () => copy,
    appUrl: async () => 'https://app.heardly.example/',
    siteUrl: 'https://heardly.example',
    budgetMs: scaled(RUN_BUDGET_MS),
    ...overrides,
  }
}

let counter = 0
async function signUp(): Promise<string> {
  const email = `faulty${++counter}@faults.test`
  const anon = createClient(supabase.url, supabase.anonKey, { auth: { persistSession: false } })
  const { error } = await anon.from('waitlist').insert({ name: 'Ada Lovelace', email, project: 'Analytical Engines' })
  expect(error).toBeNull()
  return email
}

/** `count` confirmed people, each with an entry.confirmed webhook waiting (and their confirmation e-mails gone). */
async function confirmedPeople(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await signUp()
  await supabase.db.exec(`
    update public.waitlist set status = 'confirmed', confirmed_at = now() where status = 'pending';
    delete from public.waitlist_outbox where kind <> 'webhook';
  `)
}

const rows = async (kind: string) =>
  (
    await supabase.db.query<{ id: string; status: string; attempts: number; note: string | null }>(
      'select id, status, attempts, note from public.waitlist_outbox where kind = $1 order by created_at',
      [kind],
    )
  ).rows

/** An e-mail channel that notes when each e-mail was accepted. */
function timed(channel: EmailChannel, accepted: { to: string; at: number }[]): EmailChannel {
  return async (email) => {
    await channel(email)
    accepted.push({ to: email.to.address, at: Date.now() })
  }
}

/** Runs the dispatcher every `intervalMs`, as the scheduler does, until `done` or `withinMs`; returns when it was done. */
async function dispatchUntil(
  done: () => Promise<boolean>,
  { intervalMs, withinMs, run = () => dispatchOutbox(options()) }: { intervalMs: number; withinMs: number; run?: () => Promise<DispatchReport> },
): Promise<number> {
  const started = Date.now()
  while (Date.now() - started < withinMs) {
    await run().catch(() => undefined)
    if (await done()) return Date.now() - started
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
  throw new Error(`not done within ${withinMs} ms`)
}

const figures: string[] = []
afterAll(() => {
  if (figures.length) console.info(`[faults/outbox] FAULTS_SCALE=${SCALE}\n${figures.join('\n')}`)
})

describe('the webhook receiver hung', () => {
  it('14 retries due and a new sign-up: the confirmation e-mail goes at once, the run ends within its budget, and every event arrives once the receiver answers (issue #50 item 3)', async () => {
    // The delay a confirmation e-mail sees with nothing else due, on this machine now.
    const alone: { to: string; at: number }[] = []
    const aloneStarted = Date.now()
    await signUp()
    await dispatchOutbox(options({ email: timed(options().email, alone) }))
    const baseline = alone[0]!.at - aloneStarted
    await mail.clear()
    await supabase.db.exec('delete from public.waitlist')

    await confirmedPeople(14)
    // They have failed before: retries, due now.
    await supabase.db.exec(`update public.waitlist_outbox set attempts = 1 where kind = 'webhook'`)
    const email = await signUp()
    receiver.answer = () => HUNG
    const accepted: { to: string; at: number }[] = []
    const started = Date.now()
    const report = await dispatchOutbox(options({ email: timed(options().email, accepted) }))
    const took = Date.now() - started

    expect(accepted.map((entry) => entry.to)).toEqual([email])
    const emailDelay = accepted[0]!.at - started
    // Not behind a single webhook timeout (before issue #50: behind all 14 of them, or never).
    expect(emailDelay).toBeLessThan(baseline + scaled(WEBHOOK_TIMEOUT_MS))
    expect(await rows('confirmation_email')).toMatchObject([{ status: 'sent', attempts: 1 }])
    // The budget, then at most one webhook timeout for the sends already on the wire.
    expect(took).toBeLessThan(scaled(RUN_BUDGET_MS) + scaled(WEBHOOK_TIMEOUT_MS) + 2_000)
    expect(report.failed + report.released).toBe(14)
    const hooks = await rows('webhook')
    expect(hooks.filter((row) => row.status === 'skipped')).toEqual([])
    expect(hooks.every((row) => row.status === 'pending')).toBe(true)
    // A put-back delivery was not counted as an attempt.
    expect(hooks.filter((row) => row.attempts === 1)).toHaveLength(report.released)
    figures.push(
      `webhook receiver hung: a run with 14 retries due took ${took} ms (${report.failed} timed out, ${report.released} put back); the confirmation e-mail left after ${emailDelay} ms (${baseline} ms with nothing else due)`,
    )

    // The receiver answers again: the retries go with their backoff (1 s here), each event arriving once.
    receiver.answer = () => 200
    await supabase.db.exec(`update private.waitlist_webhook_settings set retry_base_seconds = 1`)
    await supabase.db.exec(`update public.waitlist_outbox set available_at = least(available_at, now() + interval '1 second') where kind = 'webhook'`)
    const resumed = await dispatchUntil(async () => (await rows('webhook')).every((row) => row.status === 'sent'), { intervalMs: 200, withinMs: 15_000 })
    expect(receiver.events.size).toBe(14)
    expect(new Set(hooks.map((row) => webhookId(row.id)))).toEqual(new Set(receiver.events.keys()))
    expect(await mail.inbox()).toHaveLength(1)
    figures.push(`webhook receiver hung, then back: every event delivered ${resumed} ms later (backoff 1 s here; 10 s, 20 s … in a deployment)`)
  })
})

describe('a run whose budget is spent', () => {
  it('puts back the deliveries it did not start, due now and uncounted, and ends one timeout after its budget', async () => {
    await confirmedPeople(14)
    receiver.answer = () => HUNG
    const budgetMs = scaled(WEBHOOK_TIMEOUT_MS) * 1.5
    const started = Date.now()
    const report = await dispatchOutbox(options({ budgetMs }))
    const took = Date.now() - started
    // Four at a time, a timeout each: each of the four starts one or two within the budget, the rest are put back.
    expect(report.failed).toBeGreaterThanOrEqual(4)
    expect(report.failed).toBeLessThanOrEqual(8)
    expect(report.released).toBe(14 - report.failed)
    expect(took).toBeLessThan(budgetMs + scaled(WEBHOOK_TIMEOUT_MS) + 1_000)
    const { rows: counted } = await supabase.db.query<{ attempts: number; due: boolean }>(
      `select attempts, available_at <= now() as due from public.waitlist_outbox where kind = 'webhook' and status = 'pending' order by attempts, available_at`,
    )
    expect(counted.map((row) => row.attempts)).toEqual([...Array(report.released).fill(0), ...Array(report.failed).fill(1)])
    expect(counted.slice(0, report.released).every((row) => row.due)).toBe(true)
    figures.push(`a run with 14 hung deliveries and a budget of ${budgetMs} ms took ${took} ms, ${report.released} put back`)
  })
})

describe('the webhook receiver slow', () => {
  it('slower than the timeout: retried with the same webhook-id, kept once; slower but within it: delivered once, the e-mail unaffected', async () => {
    await confirmedPeople(2)
    const email = await signUp()
    const [late, slow] = (await rows('webhook')).map((row) => webhookId(row.id))
    const duplicates = receiver.duplicates()
    receiver.answer = ({ id, attempt }) => ({
      status: 200,
      delayMs: id === late && attempt === 1 ? scaled(WEBHOOK_TIMEOUT_MS) * 1.5 : scaled(WEBHOOK_TIMEOUT_MS) * 0.3,
    })
    const started = Date.now()
    const report = await dispatchOutbox(options())
    const took = Date.now() - started
    expect(report).toMatchObject({ sent: 2, failed: 1 })
    expect((await mail.inbox()).map((message) => message.to[0]?.address)).toEqual([email])
    await supabase.db.exec(`update public.waitlist_outbox set available_at = now() where status = 'pending'`)
    await dispatchUntil(async () => (await rows('webhook')).every((row) => row.status === 'sent'), { intervalMs: 200, withinMs: 10_000 })
    // The receiver kept the late one when it finally answered; the retry was a duplicate by its id.
    expect([...receiver.events.keys()].sort()).toEqual([late, slow].sort())
    expect(receiver.deliveries.filter((delivery) => delivery.id === late)).toHaveLength(2)
    // Whichever of the two answers last is the duplicate (the first still runs its 1.5 timeouts).
    await expect.poll(() => receiver.duplicates() - duplicates, { timeout: scaled(WEBHOOK_TIMEOUT_MS) * 2 }).toBe(1)
    figures.push(`webhook receiver slow (1.5 × and 0.3 × the timeout): the run took ${took} ms`)
  })
})

describe('SMTP hung (accepts the connection, never answers)', () => {
  it('the e-mail fails by the greeting timeout and is retried, the webhooks go meanwhile, and it is sent once when SMTP answers again', async () => {
    await confirmedPeople(1)
    const email = await signUp()
    await smtp.set('hang')
    const started = Date.now()
    const report = await dispatchOutbox(options())
    const took = Date.now() - started
    expect(report).toMatchObject({ sent: 1, failed: 1 })
    expect(receiver.events.size).toBe(1)
    expect(await rows('confirmation_email')).toMatchObject([{ status: 'pending', attempts: 1 }])
    expect(took).toBeLessThan(scaled(SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout) + 3_000)
    figures.push(
      `SMTP hung: the run took ${took} ms (greeting timeout ${scaled(SMTP_TIMEOUTS.greetingTimeout)} ms here, ${SMTP_TIMEOUTS.greetingTimeout} ms deployed); the webhook went meanwhile`,
    )

    await smtp.set('pass')
    await supabase.db.exec(`update private.waitlist_confirmation_settings set retry_base_seconds = 1`)
    await supabase.db.exec(`update public.waitlist_outbox set available_at = now() + interval '1 second' where kind = 'confirmation_email'`)
    const resumed = await dispatchUntil(async () => (await mail.inbox()).length > 0, { intervalMs: 200, withinMs: 15_000 })
    expect((await mail.inbox()).map((message) => message.to[0]?.address)).toEqual([email])
    expect(await rows('confirmation_email')).toMatchObject([{ status: 'sent', attempts: 2 }])
    figures.push(`SMTP hung, then back: the confirmation e-mail arrived ${resumed} ms later (first retry after 1 s here, 30 s deployed)`)
  })
})

describe('the database unreachable mid-dispatch', () => {
  beforeEach(async () => {
    await supabase.db.exec(`update private.waitlist_confirmation_settings set lease = interval '3 seconds'`)
  })

  /** The store, with the fault switched on right after `step` (the claim, or a send) answered. */
  const cutAfter = (mode: 'refuse' | 'hang', store: OutboxStore): OutboxStore => ({
    ...store,
    claim: async (max) => {
      const claimed = await store.claim(max)
      await api.set(mode)
      return claimed
    },
  })

  for (const mode of ['refuse', 'hang'] as const) {
    it(`${mode === 'refuse' ? 'connections refused' : 'connections hung'} between the claim and the sends: nothing leaves, the run stops within its bound, and everything goes once a lease after the database is back`, async () => {
      await confirmedPeople(1)
      const email = await signUp()
      const started = Date.now()
      await expect(dispatchOutbox(options({ store: cutAfter(mode, options().store) }))).rejects.toThrow()
      const took = Date.now() - started
      expect(took).toBeLessThan(scaled(STORE_TIMEOUT_MS) * 2 + 2_000)
      expect(await mail.inbox()).toEqual([])
      expect(receiver.deliveries).toEqual([])
      figures.push(`database ${mode === 'refuse' ? 'refusing connections' : 'hung'} after the claim: the run stopped after ${took} ms, nothing sent`)

      await api.set('pass')
      const back = Date.now()
      await dispatchUntil(async () => (await mail.inbox()).length > 0 && receiver.events.size > 0, { intervalMs: 200, withinMs: 15_000 })
      const resumed = Date.now() - back
      expect((await mail.inbox()).map((message) => message.to[0]?.address)).toEqual([email])
      expect(receiver.deliveries).toHaveLength(1)
      // Never handed over: back in line without an attempt counted.
      expect(await rows('confirmation_email')).toMatchObject([{ status: 'sent', attempts: 1 }])
      // Not before the lease (3 s) ended: the claimed messages waited for it.
      expect(Date.now() - started).toBeGreaterThanOrEqual(3_000)
      figures.push(
        `database ${mode === 'refuse' ? 'refusing connections' : 'hung'} after the claim, then back: e-mail and webhook sent ${resumed} ms later (the 3 s lease here; 2 min deployed)`,
      )
    })
  }

  it("connections refused between an e-mail's send and its mark: it is not sent again (in doubt after the lease)", async () => {
    const email = await signUp()
    const smtpChannel = options().email
    const cutting: EmailChannel = async (outgoing) => {
      await smtpChannel(outgoing)
      await api.set('refuse')
    }
    await expect(dispatchOutbox(options({ email: cutting }))).rejects.toThrow()
    await api.set('pass')
    await dispatchUntil(async () => (await rows('confirmation_email')).every((row) => row.status === 'in_doubt'), { intervalMs: 200, withinMs: 15_000 })
    expect((await mail.inbox()).map((message) => message.to[0]?.address)).toEqual([email])
  })

  it("connections refused between a webhook's delivery and its mark: it goes again after the lease, with the same webhook-id, kept once", async () => {
    await confirmedPeople(1)
    const duplicates = receiver.duplicates()
    receiver.answer = () => {
      void api.set('refuse')
      return 200
    }
    await expect(dispatchOutbox(options())).rejects.toThrow()
    expect(receiver.events.size).toBe(1)
    receiver.answer = () => 200
    await api.set('pass')
    await dispatchUntil(async () => (await rows('webhook')).every((row) => row.status === 'sent'), { intervalMs: 200, withinMs: 15_000 })
    const [hook] = await rows('webhook')
    expect(receiver.deliveries.map((delivery) => delivery.id)).toEqual([webhookId(hook!.id), webhookId(hook!.id)])
    expect(receiver.events.size).toBe(1)
    expect(receiver.duplicates() - duplicates).toBe(1)
  })
})
