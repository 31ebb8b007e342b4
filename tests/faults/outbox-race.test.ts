/**
 * The outbox's leases raced on a real PostgreSQL server (what PGlite, one connection, cannot show):
 * six dispatchers at once, a lease of one second that sends outlast now and then, and people
 * erasing themselves while their events are claimed or on the wire. What must hold: no deadlock
 * and no run stopped by the database; no e-mail twice; every webhook at least once, none about a
 * person after their entry.left; everything finished once the runs stop.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'
import { dispatchOutbox, type DispatchOptions } from '@/components/waitlist/outbox/dispatch'
import type { EmailChannel } from '@/components/waitlist/outbox/email'
import type { WebhookChannel } from '@/components/waitlist/outbox/webhook'
import { databaseStore } from '../helpers/outbox-store'
import { resetForMailTests, waitlistDbTargets, webhooks, type WaitlistDb } from '../helpers/waitlist-db'

const real = (await waitlistDbTargets('faults/outbox-race')).find((target) => target.name === 'PostgreSQL')
let db: WaitlistDb

beforeAll(async () => {
  if (real) db = await real.start()
})

afterAll(async () => {
  await db?.close()
})

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const jitter = (maxMs: number) => pause(Math.random() * maxMs)

describe.skipIf(!real)('on real PostgreSQL', () => {
  it(
    'six dispatchers, a one-second lease and erasures mid-flight: nothing twice, nothing lost, nothing about a person after they left',
    { timeout: 60_000 },
    async () => {
      await resetForMailTests(db)
      await webhooks(db, true)
      await db.exec(`
      update private.waitlist_confirmation_settings set lease = interval '1 second', retry_base_seconds = 0;
      update private.waitlist_webhook_settings set retry_base_seconds = 0;
    `)
      const confirmed = Array.from({ length: 20 }, (_, i) => ({ id: randomUUID(), email: `known${i}@race.test` }))
      const pending = Array.from({ length: 20 }, (_, i) => `new${i}@race.test`)
      for (const person of confirmed) {
        await db.query(`insert into public.waitlist (id, name, email, project) values ($1, 'Ada Race', $2, '')`, [person.id, person.email])
      }
      await db.exec(`update public.waitlist set status = 'confirmed', confirmed_at = now(); delete from public.waitlist_outbox where kind <> 'webhook';`)
      for (const email of pending) await db.query(`insert into public.waitlist (name, email, project) values ('Ada Race', $1, '')`, [email])

      const emails: { to: string; at: number }[] = []
      /** at: when a delivery went on the wire; ended: when it was off it (answered, or given up). */
      const deliveries: { id: string; type: string; person: string; at: number; ended?: number }[] = []
      // Sends of 0 to 0.7 s, sometimes past a run's hard stop (0.9 s after its claim).
      const email: EmailChannel = async (outgoing) => {
        emails.push({ to: outgoing.to.address, at: Date.now() })
        await jitter(700)
      }
      // Half the leavers erase themselves while their entry.confirmed is on the wire, the others at random moments.
      const midFlight = new Set<string>(confirmed.slice(0, 5).map((person) => person.id))
      const erasures: Promise<unknown>[] = []
      const webhook: WebhookChannel = async ({ id, body, signal }) => {
        const event = JSON.parse(body) as { type: string; data: { id: string } }
        const delivery: (typeof deliveries)[number] = { id, type: event.type, person: event.data.id, at: Date.now() }
        deliveries.push(delivery)
        const erasedNow = event.type === 'entry.confirmed' && midFlight.delete(event.data.id)
        if (erasedNow) erasures.push(db.query('delete from public.waitlist where id = $1', [event.data.id]))
        // A slow answer for those: time enough for another run to send an entry.left that did not wait.
        await Promise.race([
          erasedNow ? pause(800) : jitter(700),
          new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted')))),
        ]).finally(() => (delivery.ended = Date.now()))
      }
      const options: DispatchOptions = {
        store: databaseStore(() => db),
        email,
        slack: null,
        slackIncludeEmail: false,
        webhook,
        copy: async () => seedEmailCopy(),
        appUrl: async () => 'https://app.heardly.example/',
        siteUrl: 'https://heardly.example',
        maxMessages: 6,
        budgetMs: 400,
      }

      const stopped: unknown[] = []
      let running = true
      const loop = async () => {
        while (running) {
          await dispatchOutbox(options).catch((error: unknown) => stopped.push(error))
          await jitter(100)
        }
      }
      const erase = async () => {
        for (const person of confirmed.slice(5, 10)) {
          await jitter(300)
          await db.query('delete from public.waitlist where id = $1', [person.id])
        }
      }
      const loops = Array.from({ length: 6 }, loop)
      await erase()
      const finished = async () =>
        Number((await db.query<{ n: string }>(`select count(*) as n from public.waitlist_outbox where status in ('pending', 'sending')`)).rows[0]?.n) === 0
      const deadline = Date.now() + 40_000
      while (!(await finished()) && Date.now() < deadline) await pause(200)
      running = false
      await Promise.all(loops)
      await Promise.all(erasures)
      expect(midFlight.size).toBe(0)

      expect(stopped).toEqual([])
      expect(await finished()).toBe(true)
      // No e-mail twice; each one marked sent arrived, and one in doubt at most once.
      const received = emails.map((entry) => entry.to)
      expect(new Set(received).size).toBe(received.length)
      const { rows: links } = await db.query<{ email: string; status: string }>(
        `select w.email, o.status from public.waitlist_outbox o join public.waitlist w on w.id = o.entry_id where o.kind = 'confirmation_email'`,
      )
      expect(links).toHaveLength(20)
      for (const link of links) {
        const copies = received.filter((to) => to === link.email).length
        if (link.status === 'sent') expect(copies, link.email).toBe(1)
        else expect([link.status, copies], link.email).toEqual(['in_doubt', expect.toBeOneOf([0, 1])])
      }
      expect(links.filter((link) => link.status === 'sent').length).toBeGreaterThan(0)
      // Every webhook of someone still there delivered (at least once); every erased person left.
      const { rows: hooks } = await db.query<{ status: string; n: string }>(
        `select status, count(*) as n from public.waitlist_outbox where kind = 'webhook' group by status`,
      )
      expect(hooks.map((row) => row.status)).toEqual(['sent'])
      for (const person of confirmed.slice(10))
        expect(
          deliveries.some((delivery) => delivery.person === person.id && delivery.type === 'entry.confirmed'),
          person.email,
        ).toBe(true)
      for (const person of confirmed.slice(0, 10)) {
        const left = deliveries.filter((delivery) => delivery.person === person.id && delivery.type === 'entry.left')
        if (confirmed.indexOf(person) < 5) expect(deliveries.some((d) => d.person === person.id && d.type === 'entry.confirmed')).toBe(true)
        expect(left.length, person.email).toBeGreaterThan(0)
        const firstLeft = Math.min(...left.map((delivery) => delivery.at))
        // Every delivery naming them was off the wire before entry.left went on it.
        for (const delivery of deliveries.filter((d) => d.person === person.id && d.type === 'entry.confirmed')) {
          expect(delivery.ended, person.email).toBeLessThanOrEqual(firstLeft)
        }
      }
      console.info(
        `[faults/outbox-race] ${emails.length} e-mails, ${links.filter((link) => link.status === 'in_doubt').length} in doubt; ${deliveries.length} webhook deliveries for ${new Set(deliveries.map((d) => d.id)).size} events`,
      )
    },
  )
})
