/**
 * Webhooks to the founders' tools (supabase/schemas/07_outbox_webhooks.sql, components/waitlist/outbox/
 * webhook.ts), on PGlite and on a real PostgreSQL server: each fact writes exactly its event in
 * its own transaction (a held credit none until granted), the dispatcher delivers them to a real
 * HTTP receiver that verifies them with `standardwebhooks`, at least once with one webhook-id, a
 * 4xx or a redirect is final, a day ends the retries, a founder resends a failed one, and a person
 * who leaves before their events went out is heard of only as an id.
 */
import { createHash } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'
import { dispatchOutbox, type DispatchOptions, type OutboxStore } from '@/components/waitlist/outbox/dispatch'
import { webhookChannel, webhookId } from '@/components/waitlist/outbox/webhook'
import type { WebhookReceiver } from '@/tools/test/webhook-receiver'
import { webhookReceivers } from '../helpers/webhook-receivers'
import { capturingEmail, databaseStore } from '../helpers/outbox-store'
import { onEachDatabase, resetForMailTests, runAs, waitlistDbTargets, webhooks, type WaitlistDb } from '../helpers/waitlist-db'
import { newToken, waitlistPeople } from '../helpers/waitlist-people'

let db: WaitlistDb
const targets = await waitlistDbTargets('waitlist-webhooks')
const copy = seedEmailCopy()

type Queued = { id: string; type: string; entry_id: string | null; status: string; attempts: number; payload: { type: string; data: Record<string, unknown> } }

const receivers = webhookReceivers()

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    let receiver: WebhookReceiver
    let elsewhere: WebhookReceiver
    beforeEach(() => {
      receiver = receivers.receiver()
      elsewhere = receivers.elsewhere()
    })
    beforeEach(async () => {
      await resetForMailTests(db)
      await webhooks(db, true)
      await db.exec(`
      update private.waitlist_referral_settings set places_per_referral = 5, hold_disposable = true, blocked_domains = '{}',
        hold_same_network = true, same_network_seconds = 3600, hold_velocity = true, velocity_max = 5, velocity_seconds = 3600;
      update private.waitlist_webhook_settings set give_up_after = interval '1 day', retry_base_seconds = 10, retry_max_seconds = 3600, keep_finished = interval '30 days';
      delete from private.waitlist_referral_ledger;
      delete from private.waitlist_signup_networks;
    `)
    })

    const { address, call, joined, signUp } = waitlistPeople(() => db, 'webhooks.test')
    const dispatch = (overrides: Partial<DispatchOptions> = {}) =>
      dispatchOutbox({
        store: databaseStore(() => db),
        email: capturingEmail().channel,
        slack: null,
        slackIncludeEmail: false,
        webhook: webhookChannel({ url: receiver.url, secret: receiver.secret }),
        copy: async () => copy,
        appUrl: async () => 'https://app.heardly.example/',
        siteUrl: 'https://heardly.example',
        maxMessages: 100,
        ...overrides,
      })

    async function service<T>(sql: string, params: unknown[] = []): Promise<T> {
      const result = await runAs<{ value: T }>(db, 'service_role', sql, params, { keep: true, request: { headers: {} } })
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
      return result.rows[0]!.value
    }
    const queued = async () =>
      (
        await db.query<Queued>(
          `select id, payload ->> 'type' as type, entry_id, status, attempts, payload from public.waitlist_outbox where kind = 'webhook' order by created_at, payload ->> 'type'`,
        )
      ).rows
    const types = async () => (await queued()).map((row) => row.type)
    const idOf = async (email: string) => (await db.query<{ id: string }>('select id from public.waitlist where email = $1', [email])).rows[0]!.id
    const codeOf = async (token: string) => (await call<{ referral_code: string }>('select public.waitlist_me($1) as value', [token]))!.referral_code
    /** Makes every waiting webhook due now, as time passing would. */
    const due = () => db.exec(`update public.waitlist_outbox set available_at = now() where kind = 'webhook' and status = 'pending'`)
    /** Every webhook already queued marked sent, so a test sees only what comes next. */
    const settle = () => db.exec(`update public.waitlist_outbox set status = 'sent', sent_at = now() where kind = 'webhook' and status = 'pending'`)

    describe('the events each fact writes, in its own transaction', () => {
      it('none for a sign-up; entry.confirmed for a confirmation, with the place and no name or address stored', async () => {
        const email = address()
        expect(await signUp(email)).toEqual({ ok: true, rows: [] })
        expect(await types()).toEqual([])
        await db.exec(`delete from public.waitlist`)
        const { email: confirmed } = await joined(email, null, 'Grace Hopper')
        const [event] = await queued()
        expect(await types()).toEqual(['entry.confirmed'])
        expect(event).toMatchObject({
          entry_id: await idOf(confirmed),
          status: 'pending',
          payload: { type: 'entry.confirmed', data: { place: 1, referred_by: null } },
        })
        expect(JSON.stringify(event!.payload)).not.toMatch(/Grace|webhooks\.test/)
      })

      it('entry.invited when invited, entry.joined when the invitation is redeemed', async () => {
        const { email } = await joined()
        await settle()
        await service('select public.waitlist_invite_next(1) as value')
        expect((await queued()).filter((row) => row.status === 'pending').map((row) => row.type)).toEqual(['entry.invited'])
        // Its expiry is the invitation's own (computed by the trigger, not looked up: 07_outbox.sql).
        const invitation = await db.query<{ expires_at: string }>(
          `select to_jsonb(i.expires_at) #>> '{}' as expires_at from private.waitlist_invitations i join public.waitlist w on w.id = i.entry_id where w.email = $1`,
          [email],
        )
        expect((await queued()).find((row) => row.type === 'entry.invited')!.payload).toMatchObject({ data: { expires_at: invitation.rows[0]!.expires_at } })
        const token = newToken()
        await db.query(
          `insert into private.waitlist_invitation_tokens (token_hash, invitation_id) select $1, i.id from private.waitlist_invitations i join public.waitlist w on w.id = i.entry_id where w.email = $2`,
          [createHash('sha256').update(token).digest('hex'), email],
        )
        await settle()
        expect(await service('select public.waitlist_redeem_invitation($1) as value', [token])).not.toHaveProperty('error')
        const pending = (await queued()).filter((row) => row.status === 'pending')
        expect(pending.map((row) => row.type)).toEqual(['entry.joined'])
        expect(pending[0]!.entry_id).toBe(await idOf(email))
      })

      it('referral.credited for a credit that counts; none for a held credit until a founder grants it', async () => {
        const referrer = await joined()
        const code = await codeOf(referrer.token)
        await settle()
        const friend = await joined(address(), code)
        const afterFriend = (await queued()).filter((row) => row.status === 'pending')
        expect(afterFriend.map((row) => row.type).sort()).toEqual(['entry.confirmed', 'referral.credited'])
        expect(afterFriend.find((row) => row.type === 'referral.credited')).toMatchObject({
          entry_id: await idOf(referrer.email),
          payload: { data: { referral_credits: 1, places_per_referral: 5 } },
        })
        expect(afterFriend.find((row) => row.type === 'entry.confirmed')!.payload.data.referred_by).toBe(await idOf(referrer.email))
        expect(friend.email).not.toBe(referrer.email)

        await settle()
        // A disposable mailbox: the credit is held, and the founders' tools hear only of the confirmation.
        await joined('cheat@mailinator.com', code)
        expect((await queued()).filter((row) => row.status === 'pending').map((row) => row.type)).toEqual(['entry.confirmed'])
        await settle()
        const [hold] = (await db.query<{ id: number }>('select id::int as id from private.waitlist_referral_holds')).rows
        expect(await service('select public.waitlist_decide_credit($1, true) as value', [hold!.id])).toMatchObject({ changed: true })
        const granted = (await queued()).filter((row) => row.status === 'pending')
        expect(granted.map((row) => row.type)).toEqual(['referral.credited'])
        expect(granted[0]!.payload.data).toMatchObject({ referral_credits: 2 })
        // A refused one stays silent.
        await settle()
        await joined('cheat2@yopmail.com', code)
        await settle()
        const [second] = (await db.query<{ id: number }>('select id::int as id from private.waitlist_referral_holds where decision is null')).rows
        await service('select public.waitlist_decide_credit($1, false) as value', [second!.id])
        expect((await queued()).filter((row) => row.status === 'pending')).toEqual([])
      })

      it("entry.left, the id only, for an erasure and an unsubscribe; the person's unsent events go with their entry; none for an unconfirmed sign-up purged", async () => {
        const erased = await joined(address(), null, 'Erin Erased')
        const erasedId = await idOf(erased.email)
        expect(await types()).toEqual(['entry.confirmed'])
        expect(await call('select public.waitlist_delete_me($1) as value', [erased.token])).toBe(true)
        const left = await queued()
        expect(left.map((row) => [row.type, row.entry_id])).toEqual([['entry.left', null]])
        expect(left[0]!.payload.data).toEqual({ id: erasedId })

        const unsubscribed = await joined()
        const unsubscribedId = await idOf(unsubscribed.email)
        await settle()
        const token = newToken()
        await db.query(`insert into private.waitlist_unsubscribe_tokens (token_hash, entry_id) values ($1, $2)`, [
          createHash('sha256').update(token).digest('hex'),
          unsubscribedId,
        ])
        expect(await service('select public.waitlist_unsubscribe($1) as value', [token])).toBe(true)
        expect((await queued()).filter((row) => row.status === 'pending').map((row) => [row.type, row.payload.data])).toEqual([
          ['entry.left', { id: unsubscribedId }],
        ])

        await settle()
        await signUp(address())
        await db.exec(`update public.waitlist set confirm_by = now() - interval '1 day' where status = 'pending'`)
        await service('select public.waitlist_purge_pending() as value')
        expect((await queued()).filter((row) => row.status === 'pending')).toEqual([])
      })
    })

    describe('delivery', () => {
      it('a receiver that answers 500, then 200, gets the same webhook-id twice and keeps the event once', async () => {
        receiver.answer = ({ attempt }) => (attempt === 1 ? 500 : 200)
        const { email } = await joined(address(), null, 'Ada Lovelace')
        const first = await dispatch()
        expect(first).toMatchObject({ failed: 1 })
        const [row] = await queued()
        expect(row).toMatchObject({ status: 'pending', attempts: 1 })
        await due()
        expect(await dispatch()).toMatchObject({ sent: 1, failed: 0 })
        expect(receiver.deliveries.map((delivery) => [delivery.id, delivery.status, delivery.verified])).toEqual([
          [webhookId(row!.id), 500, true],
          [webhookId(row!.id), 200, true],
        ])
        expect([...receiver.events.values()]).toEqual([
          {
            type: 'entry.confirmed',
            timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
            data: expect.objectContaining({ id: await idOf(email), name: 'Ada Lovelace', email, company: 'Acme', place: 1, referred_by: null, language: 'en' }),
          },
        ])
        expect((await queued())[0]).toMatchObject({ status: 'sent', attempts: 2 })
        // Never again after a 2xx.
        await due()
        expect(await dispatch()).toMatchObject({ claimed: 0 })
        expect(receiver.deliveries).toHaveLength(2)
      })

      it('a 4xx other than 408/429 and a redirect are final: failed after one attempt, the redirect not followed', async () => {
        receiver.answer = () => 422
        await joined()
        await dispatch()
        expect((await queued())[0]).toMatchObject({ status: 'failed', attempts: 1 })
        await settle()
        receiver.answer = () => ({ status: 307, headers: { Location: elsewhere.url } })
        await joined()
        await dispatch()
        expect((await queued()).at(-1)).toMatchObject({ status: 'failed', attempts: 1 })
        expect(elsewhere.deliveries).toEqual([])
        receiver.answer = () => 429
        await joined()
        await dispatch()
        expect((await queued()).at(-1)).toMatchObject({ status: 'pending', attempts: 1 })
      })

      it('retries with a growing backoff for a day, then marks it failed; a founder resends it with the same webhook-id', async () => {
        receiver.answer = () => 503
        await joined()
        await dispatch()
        const waits = async () =>
          (await db.query<{ s: number }>(`select extract(epoch from available_at - now())::int as s from public.waitlist_outbox where kind = 'webhook'`))
            .rows[0]!.s
        expect(await waits()).toBeGreaterThanOrEqual(9)
        await due()
        await dispatch()
        expect(await waits()).toBeGreaterThanOrEqual(19)
        await db.exec(`update public.waitlist_outbox set retry_until = now() - interval '1 second', available_at = now() where kind = 'webhook'`)
        await dispatch()
        const [failed] = await queued()
        expect(failed).toMatchObject({ status: 'failed', attempts: 3 })
        expect(await service('select public.waitlist_webhook_deliveries() as value')).toEqual([
          expect.objectContaining({ id: failed!.id, type: 'entry.confirmed', state: 'failed', attempts: 3, last_error: 'Webhook answered HTTP 503.' }),
        ])

        receiver.answer = () => 200
        expect(await service('select public.waitlist_webhook_resend($1) as value', [failed!.id])).toBe(true)
        expect(await service('select public.waitlist_webhook_resend($1) as value', [failed!.id])).toBe(false)
        await dispatch()
        expect((await queued())[0]).toMatchObject({ status: 'sent' })
        expect(new Set(receiver.deliveries.map((delivery) => delivery.id))).toEqual(new Set([webhookId(failed!.id)]))
        expect(receiver.events.size).toBe(1)
      })

      it("the console's deliveries come from an index in their order: the first 50 read, never a sort of every webhook kept", async () => {
        // The function's own query (its body, 50 rows), planned with sorting and table scans priced
        // out: only an index in the deliveries' order answers it with neither.
        const { rows } = await db.query<{ body: string }>(`select prosrc as body from pg_catalog.pg_proc where proname = 'waitlist_webhook_deliveries'`)
        const query = rows[0]!.body.replaceAll('max_rows', '50')
        type PlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[] }
        // As the owner, in the owner's session (the tests' `db.transaction` runs as the API's login role).
        await db.exec('set enable_seqscan = off; set enable_sort = off')
        const plan = await db
          .query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (format json) ${query}`)
          .then(({ rows }) => rows[0]!['QUERY PLAN'][0].Plan)
          .finally(() => db.exec('reset enable_seqscan; reset enable_sort'))
        const find = (node: PlanNode, type: string): PlanNode | undefined =>
          node['Node Type'] === type ? node : (node.Plans ?? []).map((child) => find(child, type)).find(Boolean)
        // The limit reads the index straight (the aggregate may still order its 50 rows).
        const limit = find(plan, 'Limit')
        expect(limit?.Plans?.map((child) => [child['Node Type'], child['Index Name']])).toEqual([['Index Scan', 'waitlist_outbox_webhook_deliveries']])
      })

      it('sends a webhook again when the dispatcher stopped before marking it (at least once), with the same webhook-id', async () => {
        await joined()
        const claimed = await databaseStore(() => db).claim(10)
        const hook = claimed.find((message) => message.kind === 'webhook')!
        await db.exec(`update public.waitlist_outbox set lease_until = now() - interval '1 second' where status = 'sending'`)
        await dispatch()
        expect(receiver.deliveries.map((delivery) => delivery.id)).toEqual([webhookId(hook.id)])
        expect((await queued())[0]).toMatchObject({ status: 'sent' })
      })

      it('a person erased before their events went out: only entry.left goes, with no name or address in its body', async () => {
        const { email, token } = await joined(address(), null, 'Zelda Private')
        const id = await idOf(email)
        await call('select public.waitlist_delete_me($1) as value', [token])
        await dispatch()
        expect(receiver.deliveries).toHaveLength(1)
        const [delivery] = receiver.deliveries
        expect(JSON.parse(delivery!.body)).toEqual({ type: 'entry.left', timestamp: expect.any(String), data: { id } })
        expect(delivery!.body).not.toMatch(/Zelda|Private|@|webhooks\.test/i)
      })

      it('a person erased after a run claimed their event: it is not sent after the erasure, only entry.left reaches the receiver (issue #50)', async () => {
        const { email, token } = await joined(address(), null, 'Zelda Private')
        const id = await idOf(email)
        // Run A claims entry.confirmed, then stalls (a slow receiver ahead of it, a paused process).
        const store = databaseStore(() => db)
        const claimed = Promise.withResolvers<void>()
        const resume = Promise.withResolvers<void>()
        const stalled: OutboxStore = {
          ...store,
          claim: async (max) => {
            const messages = await store.claim(max)
            claimed.resolve()
            await resume.promise
            return messages
          },
        }
        const runA = dispatch({ store: stalled })
        await claimed.promise
        expect(await call('select public.waitlist_delete_me($1) as value', [token])).toBe(true)
        // Run B delivers the leaving; then run A goes on.
        await dispatch()
        resume.resolve()
        expect(await runA).toMatchObject({ sent: 0 })
        expect(receiver.deliveries.map((delivery) => JSON.parse(delivery.body).type)).toEqual(['entry.left'])
        expect(JSON.parse(receiver.deliveries[0]!.body)).toMatchObject({ data: { id } })
        expect(receiver.deliveries.map((delivery) => delivery.body).join()).not.toMatch(/Zelda|Private|@|webhooks\.test/i)
      })

      it('entry.left waits for an event about the person that is still on the wire, so it never arrives before it', async () => {
        const { email, token } = await joined(address(), null, 'Zelda Private')
        const id = await idOf(email)
        receiver.answer = () => ({ status: 200, delayMs: 400 })
        const runA = dispatch()
        await expect.poll(() => receiver.deliveries.length, { timeout: 5_000 }).toBe(1)
        const { rows: flying } = await db.query<{ lease_until: Date }>(
          `select lease_until from public.waitlist_outbox where kind = 'webhook' and status = 'sending'`,
        )
        expect(flying).toHaveLength(1)
        expect(await call('select public.waitlist_delete_me($1) as value', [token])).toBe(true)
        const { rows: left } = await db.query<{ available_at: Date }>(`select available_at from public.waitlist_outbox where payload ->> 'type' = 'entry.left'`)
        expect(left[0]!.available_at.getTime()).toBeGreaterThanOrEqual(flying[0]!.lease_until.getTime())
        // A second run sends no webhook now (the erasure e-mail goes): the leaving is not due while the event may be on the wire.
        receiver.answer = () => 200
        await dispatch()
        expect(receiver.deliveries).toHaveLength(1)
        expect(await runA).toMatchObject({ sent: 1 })
        await due()
        expect(await dispatch()).toMatchObject({ sent: 1 })
        expect(receiver.deliveries.map((delivery) => JSON.parse(delivery.body))).toMatchObject([
          { type: 'entry.confirmed', data: { id } },
          { type: 'entry.left', data: { id } },
        ])
      })

      it('with no receiver configured nothing is sent and nothing fails, and the skipped rows are deleted after keep_finished', async () => {
        await joined()
        expect(await dispatch({ webhook: null })).toMatchObject({ failed: 0 })
        expect((await queued()).map((row) => row.status)).toEqual(['skipped'])
        expect(receiver.deliveries).toEqual([])
        await service('select public.waitlist_purge_pending() as value')
        expect(await queued()).toHaveLength(1)
        await db.exec(`update public.waitlist_outbox set created_at = now() - interval '31 days' where kind = 'webhook'`)
        await service('select public.waitlist_purge_pending() as value')
        expect(await queued()).toEqual([])
      })
    })
  },
)
