/**
 * Rewards for bringing friends in the database (supabase/schemas/18_rewards.sql, issue #68), on
 * PGlite and on a real PostgreSQL server: a rung is earned once, the moment a counted credit
 * reaches its threshold (a held credit only once granted); 'places' moves the person up the line;
 * a held perk waits for one decision; a publish grants to whoever already passed a rung and takes
 * nothing back; each earning writes its e-mail (granted only), Slack line and webhook in the same
 * transaction, and they go with the person; the own page and the export show it; the public key
 * can reach none of it; and 50 credits at once to one referrer earn each rung exactly once.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { emptyList, onEachDatabase, runAs, waitlistDbTargets, webhooks, type WaitlistDb } from '../helpers/waitlist-db'
import { newToken, sha256, waitlistPeople } from '../helpers/waitlist-people'

let db: WaitlistDb

const targets = await waitlistDbTargets('rewards-db')

type Rung = { key: string; threshold: number; kind: 'places' | 'perk'; places?: number; approval?: 'instant' | 'held' }
type Me = { status: string; place: number | null; referrals: number; referral_code: string; rewards: { rung: string; status: string }[] }
type Earned = { email: string; rung: string; kind: string; places: number | null; status: string; decided: boolean }

const LADDER: Rung[] = [
  { key: 'skip-ahead', threshold: 1, kind: 'places', places: 100 },
  { key: 'badge', threshold: 3, kind: 'perk', approval: 'instant' },
  { key: 'month-free', threshold: 5, kind: 'perk', approval: 'held' },
]

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    beforeEach(async () => {
      await emptyList(db, 'private.waitlist_reward_rungs', 'private.waitlist_referral_ledger', 'private.waitlist_signup_networks', 'private.waitlist_mail_log')
      await db.exec(
        `update private.waitlist_referral_settings set places_per_referral = 5, hold_velocity = false, hold_same_network = false, blocked_domains = '{}'`,
      )
      await webhooks(db, false)
    })

    const { address, api, call, signUp, mailToken, confirm, joined, exportMe, deleteMe } = waitlistPeople(() => db, 'rewards.test')

    /** A call as the site's server or the owner's commands make it: the service-role key. */
    async function service<T>(sql: string, params: unknown[] = []): Promise<T> {
      const result = await runAs<{ value: T }>(db, 'service_role', sql, params, { keep: true, request: { headers: {} } })
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
      return result.rows[0]!.value
    }
    const publish = (rungs: unknown) => service<number>('select public.waitlist_replace_rewards($1::jsonb) as value', [JSON.stringify(rungs)])
    const decide = (entry: string, rung: string, grant: boolean) =>
      service<{ entry: string; rung: string; status: string; changed: boolean } | null>('select public.waitlist_decide_reward($1, $2, $3) as value', [
        entry,
        rung,
        grant,
      ])
    const me = async (token: string) => (await call<Me>('select public.waitlist_me($1) as value', [token]))!
    const idOf = async (email: string) => (await db.query<{ id: string }>('select id from public.waitlist where email_key = lower($1)', [email])).rows[0]!.id
    const earned = async () =>
      (
        await db.query<Earned>(
          `select w.email, e.rung, e.kind, e.places, e.status, e.decided_at is not null as decided
             from private.waitlist_rewards_earned e join public.waitlist w on w.id = e.entry_id order by w.email, e.earned_at, e.rung`,
        )
      ).rows
    const messages = async (kind: string) =>
      (
        await db.query<{ email: string; payload: Record<string, unknown> }>(
          `select w.email, o.payload from public.waitlist_outbox o join public.waitlist w on w.id = o.entry_id where o.kind = $1 order by o.created_at, o.id`,
          [kind],
        )
      ).rows

    /** A confirmed referrer, their token and code. */
    async function referrer(email = address()) {
      const { token } = await joined(email)
      return { email, token, code: (await me(token)).referral_code }
    }
    /** `n` friends confirmed through `code`, one after the other. */
    async function friends(code: string, n: number) {
      for (let i = 0; i < n; i++) await joined(address(), code)
    }

    describe('earning', () => {
      it('a rung is earned the moment the counted credits reach its threshold, not before', async () => {
        await publish(LADDER)
        const ada = await referrer()
        await friends(ada.code, 2)
        expect((await earned()).map((row) => row.rung)).toEqual(['skip-ahead'])
        await friends(ada.code, 1)
        expect(await earned()).toEqual([
          { email: ada.email, rung: 'skip-ahead', kind: 'places', places: 100, status: 'granted', decided: true },
          { email: ada.email, rung: 'badge', kind: 'perk', places: null, status: 'granted', decided: true },
        ])
        await friends(ada.code, 3)
        expect((await earned()).map((row) => [row.rung, row.status])).toEqual([
          ['skip-ahead', 'granted'],
          ['badge', 'granted'],
          ['month-free', 'held'],
        ])
        expect((await me(ada.token)).rewards).toEqual([
          { rung: 'skip-ahead', status: 'granted' },
          { rung: 'badge', status: 'granted' },
          { rung: 'month-free', status: 'held' },
        ])
      })

      it('a held credit earns nothing until a founder grants it; a refused one never does', async () => {
        await publish([{ key: 'first', threshold: 1, kind: 'perk', approval: 'instant' }])
        await db.exec(`update private.waitlist_referral_settings set blocked_domains = '{blocked.example}'`)
        const ada = await referrer()
        await joined('farm1@blocked.example', ada.code)
        await joined('farm2@blocked.example', ada.code)
        expect(await earned()).toEqual([])
        expect((await me(ada.token)).rewards).toEqual([])
        const holds = (await db.query<{ id: number }>('select id::int as id from private.waitlist_referral_holds order by id')).rows
        await service('select public.waitlist_decide_credit($1, false) as value', [holds[0]!.id])
        expect(await earned()).toEqual([])
        await service('select public.waitlist_decide_credit($1, true) as value', [holds[1]!.id])
        expect((await earned()).map((row) => [row.email, row.rung, row.status])).toEqual([[ada.email, 'first', 'granted']])
        expect(await messages('reward_email')).toEqual([{ email: ada.email, payload: { rung: 'first', language: 'en' } }])
      })

      it("'places' moves the person up that many places more: the place shown and the order of invitations follow", async () => {
        await db.exec('update private.waitlist_referral_settings set places_per_referral = 1')
        await publish([{ key: 'skip', threshold: 1, kind: 'places', places: 3 }])
        for (let i = 0; i < 10; i++) await joined()
        const ada = await referrer()
        expect((await me(ada.token)).place).toBe(11)
        await friends(ada.code, 1)
        // Arrival 11 less one credit and three places: the key of the 7th, who arrived earlier.
        expect((await me(ada.token)).place).toBe(8)
        expect((await db.query<{ reward_places: number }>('select reward_places from public.waitlist where id = $1', [await idOf(ada.email)])).rows).toEqual([
          { reward_places: 3 },
        ])
        const head = await service<{ email: string; place: number }[]>('select public.waitlist_line_head(8) as value')
        expect(head[7]).toMatchObject({ email: ada.email, place: 8 })
        // A rebuild (a change of places_per_referral) keeps the rewarded places in the key.
        await db.exec('update private.waitlist_referral_settings set places_per_referral = 2')
        await db.exec('update private.waitlist_referral_settings set places_per_referral = 1')
        expect((await me(ada.token)).place).toBe(8)
      })

      it('an instant perk is granted at once; a held one waits for a decision, taken once', async () => {
        await publish([
          { key: 'badge', threshold: 1, kind: 'perk', approval: 'instant' },
          { key: 'call', threshold: 2, kind: 'perk', approval: 'held' },
        ])
        const ada = await referrer()
        const bob = await referrer()
        await friends(ada.code, 2)
        await friends(bob.code, 2)
        expect((await earned()).map((row) => [row.email, row.rung, row.status, row.decided])).toEqual([
          [ada.email, 'badge', 'granted', true],
          [ada.email, 'call', 'held', false],
          [bob.email, 'badge', 'granted', true],
          [bob.email, 'call', 'held', false],
        ])
        const adaId = await idOf(ada.email)
        const bobId = await idOf(bob.email)
        expect(await decide(adaId, 'call', true)).toEqual({ entry: adaId, rung: 'call', status: 'granted', changed: true })
        expect(await decide(adaId, 'call', false)).toEqual({ entry: adaId, rung: 'call', status: 'granted', changed: false })
        expect(await decide(bobId, 'call', false)).toEqual({ entry: bobId, rung: 'call', status: 'refused', changed: true })
        expect(await decide(bobId, 'call', true)).toEqual({ entry: bobId, rung: 'call', status: 'refused', changed: false })
        // Granted at earning: nothing to decide.
        expect(await decide(adaId, 'badge', false)).toMatchObject({ status: 'granted', changed: false })
        expect(await decide(adaId, 'nothing', true)).toBeNull()
        await expect(service('select public.waitlist_decide_reward($1, $2, null) as value', [adaId, 'call'])).rejects.toThrow(/^22004/)
        // The e-mail goes for what is granted: both badges, and Ada's call once approved; never Bob's refused one.
        expect((await messages('reward_email')).map((row) => [row.email, row.payload.rung])).toEqual([
          [ada.email, 'badge'],
          [bob.email, 'badge'],
          [ada.email, 'call'],
        ])
        // A refused reward leaves the own page; the export keeps it.
        expect((await me(bob.token)).rewards).toEqual([{ rung: 'badge', status: 'granted' }])
        const exported = (await exportMe(bob.token)) as { rewards: { rung: string; status: string }[] }
        expect(exported.rewards.map((reward) => [reward.rung, reward.status])).toEqual([
          ['badge', 'granted'],
          ['call', 'refused'],
        ])
      })

      it('two decisions at once on one held perk: one changes it, the other finds it decided', async () => {
        await publish([{ key: 'call', threshold: 1, kind: 'perk', approval: 'held' }])
        const ada = await referrer()
        await friends(ada.code, 1)
        const id = await idOf(ada.email)
        const answers = await Promise.all([decide(id, 'call', true), decide(id, 'call', false)])
        expect(answers.filter((answer) => answer?.changed)).toHaveLength(1)
        expect(new Set(answers.map((answer) => answer?.status)).size).toBe(1)
        expect((await messages('reward_email')).length).toBe(answers[0]!.status === 'granted' ? 1 : 0)
      })
    })

    describe('publishing the ladder', () => {
      it('the same ladder again earns nothing twice; a lowered threshold grants whoever passed it; a raised one takes nothing back', async () => {
        await publish(LADDER)
        const ada = await referrer()
        const bob = await referrer()
        await friends(ada.code, 3)
        await friends(bob.code, 1)
        const before = await earned()
        expect(before.map((row) => [row.email, row.rung])).toEqual([
          [ada.email, 'skip-ahead'],
          [ada.email, 'badge'],
          [bob.email, 'skip-ahead'],
        ])
        const mails = (await messages('reward_email')).length
        const adaId = await idOf(ada.email)
        const places = async () => (await db.query<{ p: number }>('select reward_places as p from public.waitlist where id = $1', [adaId])).rows[0]!.p

        expect(await publish(LADDER)).toBe(3)
        expect(await earned()).toEqual(before)
        expect(await messages('reward_email')).toHaveLength(mails)
        expect(await places()).toBe(100)

        // The perk lowered to 1 and a new places rung at 2: Bob passed both, Ada already had the perk.
        expect(
          await publish([
            { key: 'skip-ahead', threshold: 1, kind: 'places', places: 100 },
            { key: 'bonus', threshold: 2, kind: 'places', places: 7 },
            { key: 'badge', threshold: 3, kind: 'perk', approval: 'instant' },
          ]),
        ).toBe(3)
        await publish([
          { key: 'badge', threshold: 1, kind: 'perk', approval: 'instant' },
          { key: 'skip-ahead', threshold: 2, kind: 'places', places: 100 },
          { key: 'bonus', threshold: 3, kind: 'places', places: 7 },
        ])
        expect((await earned()).map((row) => [row.email, row.rung])).toEqual([
          [ada.email, 'skip-ahead'],
          [ada.email, 'badge'],
          [ada.email, 'bonus'],
          [bob.email, 'skip-ahead'],
          [bob.email, 'badge'],
        ])
        expect(await places()).toBe(107)

        // Raised past everyone, or removed: nothing is taken back.
        await publish([{ key: 'badge', threshold: 50, kind: 'perk', approval: 'instant' }])
        expect((await earned()).length).toBe(5)
        expect(await places()).toBe(107)
        await publish([])
        expect((await earned()).length).toBe(5)
        expect((await me(ada.token)).rewards.map((reward) => reward.rung)).toEqual(['skip-ahead', 'badge', 'bonus'])
      })

      it("what a publish owes is granted in batches (the publish's first, then each dispatcher run), as bulk: e-mails and webhooks ranked last, no Slack line per person", async () => {
        await webhooks(db, true)
        const people = []
        for (let i = 0; i < 5; i++) {
          const person = await referrer()
          await friends(person.code, 1)
          people.push(person)
        }
        // As a publish leaves a rung it could not finish within the API's time: owed.
        await db.exec(`insert into private.waitlist_reward_rungs (key, threshold, kind, places, owed) values ('late', 1, 'places', 4, true)`)
        const owed = async () => (await db.query<{ owed: boolean }>(`select owed from private.waitlist_reward_rungs where key = 'late'`)).rows[0]!.owed
        expect((await db.query<{ n: number }>('select private.waitlist_rewards_catch_up(2) as n')).rows).toEqual([{ n: 2 }])
        expect(await earned()).toHaveLength(2)
        expect(await owed()).toBe(true)
        expect((await db.query<{ n: number }>('select private.waitlist_rewards_catch_up(2) as n')).rows).toEqual([{ n: 2 }])
        await service('select public.waitlist_purge_pending() as value')
        expect((await earned()).map((row) => row.email).sort()).toEqual(people.map((person) => person.email).sort())
        expect(await owed()).toBe(false)
        expect((await db.query<{ n: number }>('select private.waitlist_rewards_catch_up(2000) as n')).rows).toEqual([{ n: 0 }])
        const places = await db.query<{ p: number }>('select reward_places as p from public.waitlist where reward_places > 0')
        expect(places.rows).toEqual(Array(5).fill({ p: 4 }))
        const ranked = await db.query<{ kind: string; type: string | null; ladder: boolean; rank: number }>(
          `select kind, payload ->> 'type' as type, payload ? 'ladder' as ladder, private.waitlist_outbox_rank(kind, payload) as rank
             from public.waitlist_outbox where kind in ('reward_email', 'slack_reward') or payload ->> 'type' = 'reward.earned' order by kind`,
        )
        expect(ranked.rows).toEqual([
          ...Array(5).fill({ kind: 'reward_email', type: null, ladder: true, rank: 3 }),
          ...Array(5).fill({ kind: 'webhook', type: 'reward.earned', ladder: true, rank: 3 }),
        ])
      })

      it('refuses a ladder that is not at most 8 ascending rungs of known kinds (22023), and keeps the one published', async () => {
        await publish(LADDER)
        const rung = (threshold: number, key = `r${threshold}`): Rung => ({ key, threshold, kind: 'perk', approval: 'instant' })
        const refused: unknown[] = [
          null,
          {},
          Array.from({ length: 9 }, (_, i) => rung(i + 1)),
          [rung(3), rung(2)],
          [rung(2), rung(2, 'other')],
          [rung(1, 'same'), rung(2, 'same')],
          [rung(1, 'Upper')],
          [rung(1, '1st')],
          [rung(1, 'a'.repeat(41))],
          [rung(0)],
          [rung(10001)],
          [{ key: 'x', threshold: 1.5, kind: 'perk', approval: 'instant' }],
          [{ key: 'x', threshold: '1', kind: 'perk', approval: 'instant' }],
          [{ key: 'x', threshold: 1, kind: 'points' }],
          [{ key: 'x', threshold: 1, kind: 'places' }],
          [{ key: 'x', threshold: 1, kind: 'places', places: 0 }],
          [{ key: 'x', threshold: 1, kind: 'places', places: 5, approval: 'held' }],
          [{ key: 'x', threshold: 1, kind: 'perk' }],
          [{ key: 'x', threshold: 1, kind: 'perk', approval: 'later' }],
          [{ key: 'x', threshold: 1, kind: 'perk', approval: 'held', places: 5 }],
          ['x'],
        ]
        for (const rungs of refused) {
          await expect(publish(rungs), JSON.stringify(rungs)).rejects.toThrow(/^22023/)
        }
        expect(await publish(Array.from({ length: 8 }, (_, i) => rung(i + 1)))).toBe(8)
        await publish(LADDER)
        expect((await db.query<{ key: string }>('select key from private.waitlist_reward_rungs order by threshold')).rows.map((row) => row.key)).toEqual(
          LADDER.map((rung) => rung.key),
        )
      })
    })

    describe('messages', () => {
      it('one reward e-mail per rung granted, in the person’s language; Slack and a webhook for each rung earned, held or not; nothing for a referral that earns nothing', async () => {
        await webhooks(db, true)
        await publish(LADDER)
        const ada = await referrer()
        const count = async () => ({
          email: (await messages('reward_email')).length,
          slack: (await messages('slack_reward')).length,
          webhook: (await db.query(`select 1 from public.waitlist_outbox where payload ->> 'type' = 'reward.earned'`)).rows.length,
        })
        await friends(ada.code, 1)
        expect(await count()).toEqual({ email: 1, slack: 1, webhook: 1 })
        await friends(ada.code, 1)
        expect(await count()).toEqual({ email: 1, slack: 1, webhook: 1 })
        await friends(ada.code, 3)
        // The badge (granted: e-mail) and the month free (held: no e-mail yet).
        expect(await count()).toEqual({ email: 2, slack: 3, webhook: 3 })
        expect((await messages('slack_reward')).map((row) => row.payload)).toEqual([
          { rung: 'skip-ahead', kind: 'places', status: 'granted', language: 'en' },
          { rung: 'badge', kind: 'perk', status: 'granted', language: 'en' },
          { rung: 'month-free', kind: 'perk', status: 'held', language: 'en' },
        ])
        const events = await db.query<{ entry: string; payload: { type: string; data: Record<string, unknown> }; retry: boolean }>(
          `select entry_id as entry, payload, retry_until is not null as retry from public.waitlist_outbox where payload ->> 'type' = 'reward.earned' order by created_at, id`,
        )
        const adaId = await idOf(ada.email)
        expect(events.rows.map((row) => ({ entry: row.entry, data: row.payload.data, retry: row.retry }))).toEqual([
          { entry: adaId, data: { rung: 'skip-ahead', kind: 'places', status: 'granted', places: 100, threshold: 1 }, retry: true },
          { entry: adaId, data: { rung: 'badge', kind: 'perk', status: 'granted', places: null, threshold: 3 }, retry: true },
          { entry: adaId, data: { rung: 'month-free', kind: 'perk', status: 'held', places: null, threshold: 5 }, retry: true },
        ])
        // Approval sends the e-mail only: the founders heard of it when it was earned.
        await decide(adaId, 'month-free', true)
        expect(await count()).toEqual({ email: 3, slack: 3, webhook: 3 })
        // No copy of the person: the name and address are read when each is sent.
        const stored = await db.query<{ payload: string }>(
          `select payload::text from public.waitlist_outbox where kind in ('reward_email', 'slack_reward', 'webhook')`,
        )
        for (const row of stored.rows) expect(row.payload).not.toContain('rewards.test')
      })

      it('a reward e-mail in German for a German sign-up, ranked with the e-mails people wait for and counted against the hourly cap', async () => {
        await publish([{ key: 'badge', threshold: 1, kind: 'perk', approval: 'instant' }])
        await db.exec(`update private.waitlist_mail_caps set emails_per_hour = 100000`)
        const ada = await referrer()
        await db.exec(`update public.waitlist set language = 'de' where email_key = '${ada.email}'`)
        await friends(ada.code, 1)
        expect(await messages('reward_email')).toEqual([{ email: ada.email, payload: { rung: 'badge', language: 'de' } }])
        const rank = await db.query<{ rank: number }>(
          `select private.waitlist_outbox_rank(kind, payload) as rank from public.waitlist_outbox where kind = 'reward_email'`,
        )
        expect(rank.rows).toEqual([{ rank: 0 }])
        await db.exec(`update public.waitlist_outbox set status = 'sent' where kind <> 'reward_email'`)
        const claimed = await service<{ kind: string; entry: { email: string } }[]>('select public.waitlist_outbox_claim(10) as value')
        expect(claimed.map((message) => [message.kind, message.entry.email])).toEqual([['reward_email', ada.email]])
        const logged = await db.query<{ kind: string }>(`select kind from private.waitlist_mail_log where kind = 'reward_email'`)
        expect(logged.rows).toHaveLength(1)
        // Once the hour's cap is spent, it waits.
        await db.exec(`update public.waitlist_outbox set status = 'pending', lease_id = null, lease_until = null, counted = false where kind = 'reward_email'`)
        await db.exec(`update private.waitlist_mail_caps set emails_per_hour = 1`)
        expect(await service('select public.waitlist_outbox_claim(10) as value')).toEqual([])
      })

      it('someone who left or unsubscribed gets no reward e-mail: their messages and rewards go with their entry', async () => {
        await webhooks(db, true)
        await publish([{ key: 'badge', threshold: 1, kind: 'perk', approval: 'instant' }])
        const ada = await referrer()
        const bob = await referrer()
        await friends(ada.code, 1)
        await friends(bob.code, 1)
        expect(await messages('reward_email')).toHaveLength(2)
        // Ada erases herself from her page; Bob clicks an e-mail's one-click unsubscribe.
        expect(await deleteMe(ada.token)).toBe(true)
        const oneClick = newToken()
        await db.query(`insert into private.waitlist_unsubscribe_tokens (token_hash, entry_id) values ($1, $2)`, [sha256(oneClick), await idOf(bob.email)])
        expect(await service('select public.waitlist_unsubscribe($1) as value', [oneClick])).toBe(true)
        const left = await db.query(
          `select kind, payload ->> 'type' as type from public.waitlist_outbox where kind in ('reward_email', 'slack_reward') or payload ->> 'type' = 'reward.earned'`,
        )
        expect(left.rows).toEqual([])
        expect(await earned()).toEqual([])
      })
    })

    describe('own data and erasure', () => {
      it('waitlist_me lists granted and held rewards; the export everything earned, with kind, places and times', async () => {
        await publish(LADDER)
        const ada = await referrer()
        expect((await me(ada.token)).rewards).toEqual([])
        await friends(ada.code, 5)
        expect((await me(ada.token)).rewards).toEqual([
          { rung: 'skip-ahead', status: 'granted' },
          { rung: 'badge', status: 'granted' },
          { rung: 'month-free', status: 'held' },
        ])
        const exported = (await exportMe(ada.token)) as { entry: Record<string, unknown>; rewards: Record<string, unknown>[] }
        expect(exported.entry.reward_places).toBe(100)
        expect(exported.rewards).toEqual([
          expect.objectContaining({ rung: 'skip-ahead', kind: 'places', places: 100, status: 'granted', decided_at: expect.any(String) }),
          expect.objectContaining({ rung: 'badge', kind: 'perk', places: null, status: 'granted' }),
          expect.objectContaining({ rung: 'month-free', kind: 'perk', places: null, status: 'held', decided_at: null, earned_at: expect.any(String) }),
        ])
        // An invited person's page still lists them.
        await service('select public.waitlist_invite_next(10) as value')
        expect((await me(ada.token)).rewards).toHaveLength(3)
      })

      it('erasure takes every reward with the entry (on delete cascade)', async () => {
        await publish(LADDER)
        const ada = await referrer()
        await friends(ada.code, 5)
        const id = await idOf(ada.email)
        expect(await deleteMe(ada.token)).toBe(true)
        expect((await db.query('select 1 from private.waitlist_rewards_earned where entry_id = $1', [id])).rows).toEqual([])
        expect(await service('select public.waitlist_held_rewards() as value')).toEqual([])
      })
    })

    describe("the founders' reads", () => {
      it('counts per rung, the held perks oldest first with who earned them, the last perks granted newest first', async () => {
        await publish(LADDER)
        const ada = await referrer()
        const bob = await referrer()
        await friends(ada.code, 5)
        await friends(bob.code, 5)
        await decide(await idOf(bob.email), 'month-free', false)
        await publish([...LADDER.slice(1)])
        await db.exec(
          `insert into private.waitlist_rewards_earned (entry_id, rung, kind, status, decided_at) select id, 'retired', 'perk', 'granted', now() from public.waitlist where email_key = '${ada.email}'`,
        )
        expect(await service('select public.waitlist_reward_counts() as value')).toEqual([
          { rung: 'badge', threshold: 3, kind: 'perk', places: null, approval: 'instant', reached: 2, granted: 2, held: 0, refused: 0 },
          { rung: 'month-free', threshold: 5, kind: 'perk', places: null, approval: 'held', reached: 2, granted: 0, held: 1, refused: 1 },
          { rung: 'retired', threshold: null, kind: null, places: null, approval: null, reached: 1, granted: 1, held: 0, refused: 0 },
          { rung: 'skip-ahead', threshold: null, kind: null, places: null, approval: null, reached: 2, granted: 2, held: 0, refused: 0 },
        ])
        expect(await service('select public.waitlist_held_rewards() as value')).toEqual([
          { entry_id: await idOf(ada.email), rung: 'month-free', earned_at: expect.any(String), name: 'Ada', email: ada.email, referral_credits: 5 },
        ])
        const granted = await service<{ rung: string; email: string; approved: boolean }[]>('select public.waitlist_granted_perks(2) as value')
        expect(granted.map((perk) => [perk.rung, perk.email])).toEqual([
          ['retired', ada.email],
          ['badge', bob.email],
        ])
      })

      it('`--where rung=<key>`: the head of the line and an invitation take only those granted the rung', async () => {
        await publish([
          { key: 'badge', threshold: 1, kind: 'perk', approval: 'instant' },
          { key: 'call', threshold: 2, kind: 'perk', approval: 'held' },
        ])
        const ada = await referrer()
        const bob = await referrer()
        await referrer()
        await friends(ada.code, 2)
        await friends(bob.code, 1)
        const head = (segment: unknown) =>
          service<{ email: string }[]>('select public.waitlist_line_head(10, $1::jsonb) as value', [JSON.stringify(segment)]).then((rows) =>
            rows.map((row) => row.email).sort(),
          )
        expect(await head({ '@rung': ['badge'] })).toEqual([ada.email, bob.email].sort())
        expect(await head({ '@rung': ['call'] })).toEqual([])
        await decide(await idOf(ada.email), 'call', true)
        expect(await head({ '@rung': ['call'] })).toEqual([ada.email])
        expect(await head({ '@rung': ['call', 'badge'] })).toEqual([ada.email, bob.email].sort())
        for (const bad of [{ '@rung': [] }, { '@rung': 'badge' }, { '@rung': ['Badge'] }, { '@rung': Array.from({ length: 9 }, (_, i) => `r${i}`) }]) {
          await expect(head(bad), JSON.stringify(bad)).rejects.toThrow(/^22023/)
        }
        const invited = await service<{ email: string }[]>(`select public.waitlist_invite_next(5, false, '{"@rung": ["call"]}'::jsonb) as value`)
        expect(invited.map((person) => person.email)).toEqual([ada.email])
      })
    })

    describe('the public key', () => {
      it('can call none of the service-role functions and cannot read or write the rewards', async () => {
        await publish(LADDER)
        const ada = await referrer()
        await friends(ada.code, 5)
        const id = await idOf(ada.email)
        const attempts: [string, unknown[]][] = [
          [`select public.waitlist_replace_rewards('[]'::jsonb)`, []],
          [`select public.waitlist_decide_reward($1, 'month-free', true)`, [id]],
          [`select public.waitlist_reward_counts()`, []],
          [`select public.waitlist_held_rewards()`, []],
          [`select public.waitlist_granted_perks()`, []],
          [`select * from private.waitlist_reward_rungs`, []],
          [`select * from private.waitlist_rewards_earned`, []],
          [`insert into private.waitlist_rewards_earned (entry_id, rung, kind, status, decided_at) values ($1, 'x', 'perk', 'granted', now())`, [id]],
          [`select private.waitlist_own_rewards($1)`, [id]],
          [`select private.waitlist_in_rungs($1, '{}'::jsonb)`, [id]],
          [`select private.waitlist_rewards_catch_up(2000)`, []],
          [`select private.waitlist_rewards_announce(array[$1::uuid], array['badge'], 'credit')`, [id]],
          [`select reward_places from public.waitlist`, []],
          [`update public.waitlist set reward_places = 100000`, []],
          [`insert into public.waitlist (name, email, project, reward_places) values ('Eve', 'eve@rewards.test', '', 100000)`, []],
        ]
        for (const role of ['anon', 'authenticated']) {
          for (const [sql, params] of attempts) {
            expect(await runAs(db, role, sql, params, { request: api() }), `${role}: ${sql}`).toMatchObject({ ok: false, code: '42501' })
          }
        }
        expect((await earned()).find((row) => row.rung === 'month-free')).toMatchObject({ status: 'held' })
        expect((await db.query('select 1 from private.waitlist_reward_rungs')).rows).toHaveLength(3)
      })
    })

    describe('at once', () => {
      it('50 credits at once to one referrer earn each rung exactly once, with one e-mail each', async () => {
        await publish([
          { key: 'one', threshold: 1, kind: 'places', places: 10 },
          { key: 'ten', threshold: 10, kind: 'perk', approval: 'instant' },
          { key: 'twenty-five', threshold: 25, kind: 'places', places: 20 },
          { key: 'fifty', threshold: 50, kind: 'perk', approval: 'held' },
        ])
        const ada = await referrer()
        const tokens: string[] = []
        for (let i = 0; i < 50; i++) {
          const email = address()
          expect(await signUp(email, ada.code)).toEqual({ ok: true, rows: [] })
          tokens.push(await mailToken(email))
        }
        const outcomes = await Promise.all(tokens.map((token) => confirm(token)))
        expect(outcomes).toEqual(Array(50).fill('confirmed'))
        expect((await me(ada.token)).referrals).toBe(50)
        // Sorted: each transaction's clock is its start, not its commit, so times do not order them.
        const rungs = (rows: { payload: Record<string, unknown> }[]) => rows.map((row) => String(row.payload.rung)).sort()
        expect((await earned()).map((row) => [row.rung, row.status]).sort()).toEqual([
          ['fifty', 'held'],
          ['one', 'granted'],
          ['ten', 'granted'],
          ['twenty-five', 'granted'],
        ])
        expect(rungs(await messages('reward_email'))).toEqual(['one', 'ten', 'twenty-five'])
        expect(rungs(await messages('slack_reward'))).toEqual(['fifty', 'one', 'ten', 'twenty-five'])
        const places = await db.query<{ p: number }>('select reward_places as p from public.waitlist where id = $1', [await idOf(ada.email)])
        expect(places.rows).toEqual([{ p: 30 }])
      })

      it('a publish beside credits at once: every rung reached is earned once, none missed', async () => {
        const ada = await referrer()
        const tokens: string[] = []
        for (let i = 0; i < 20; i++) {
          const email = address()
          expect(await signUp(email, ada.code)).toEqual({ ok: true, rows: [] })
          tokens.push(await mailToken(email))
        }
        const ladder = Array.from({ length: 8 }, (_, i) => ({ key: `r${i + 1}`, threshold: (i + 1) * 2, kind: 'perk', approval: 'instant' }))
        await Promise.all([...tokens.slice(0, 10).map((token) => confirm(token)), publish(ladder), ...tokens.slice(10).map((token) => confirm(token))])
        expect((await earned()).map((row) => row.rung).sort()).toEqual(ladder.map((rung) => rung.key).sort())
        expect(await messages('reward_email')).toHaveLength(8)
      })
    })
  },
)
