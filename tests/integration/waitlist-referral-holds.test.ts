/**
 * Referral credit only for real people (supabase/schemas/05_line.sql, issue #42), attacked as a
 * cheat with the public key would, on PGlite and on a real PostgreSQL server: disposable
 * addresses, the referrer's own network, a burst of referrals and the founders' blocklist each
 * earn a held credit that moves nobody and shows nowhere the cheat can look, until a founder grants
 * it (then it counts like any other) or refuses it, once, also when two decisions arrive at once.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'
import { rowsHolding, waitlistPeople } from '../helpers/waitlist-people'

let db: WaitlistDb

const targets = await waitlistDbTargets('waitlist-referral-holds')

type Me = { status: string; place: number | null; confirmed_total: number; referrals: number; referral_code: string; places_per_referral: number }
type Decision = { id: number; decision: 'granted' | 'refused'; changed: boolean } | null

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    let initialSettings: Record<string, unknown>
    beforeAll(async () => {
      initialSettings = (
        await db.query(
          `select hold_disposable, blocked_domains, hold_same_network, same_network_seconds, hold_velocity, velocity_max, velocity_seconds from private.waitlist_referral_settings`,
        )
      ).rows[0]!
    })

    beforeEach(async () => {
      await db.exec(`
      update private.waitlist_confirmation_settings set confirm_per_client = 1000, link_requests_per_client = 1000;
      update private.waitlist_referral_settings set own_data_per_client = 1000, places_per_referral = 5,
        hold_disposable = true, blocked_domains = '{}', hold_same_network = true, same_network_seconds = 3600,
        hold_velocity = true, velocity_max = 5, velocity_seconds = 3600;
      delete from public.waitlist;
      delete from public.waitlist_outbox;
      delete from private.waitlist_api_attempts;
      delete from private.waitlist_recent_signups;
      delete from private.waitlist_referral_ledger;
      delete from private.waitlist_signup_networks;
    `)
    })

    const { address, call, signUp, mailToken, confirm, joined: joinedAnywhere, exportMe, deleteMe } = waitlistPeople(() => db, 'holds.test')

    /** Signs up from network `client` (an API request as PostgREST makes it), confirms, and returns the e-mailed token. */
    const joinedFrom = async (client: string, email = address(), ref: string | null = null) => (await joinedAnywhere(email, ref, undefined, client)).token
    /** Each from a network of its own, as waitlistPeople does. */
    const joined = async (email = address(), ref: string | null = null) => (await joinedAnywhere(email, ref)).token
    const me = async (token: string) => (await call<Me>('select public.waitlist_me($1) as value', [token]))!
    const codeOf = async (token: string) => (await me(token)).referral_code
    /** n people confirmed before the referrer, so a credit has places to move them. */
    const crowd = async (n: number) => {
      for (let i = 0; i < n; i++) await joined()
    }
    const holds = async () =>
      (
        await db.query<{ id: number; reason: string; decision: string | null; referrer: string; referred: string | null }>(
          `select h.id::int as id, h.reason, h.decision, r.email as referrer, f.email as referred
           from private.waitlist_referral_holds h join public.waitlist r on r.id = h.referrer_id left join public.waitlist f on f.id = h.referred_id
          order by h.id`,
        )
      ).rows
    /** A founder's decision, as the owner's commands make it: the service-role key. */
    async function decide(id: number, grant: boolean): Promise<Decision> {
      const result = await runAs<{ value: Decision }>(db, 'service_role', 'select public.waitlist_decide_credit($1, $2) as value', [id, grant], {
        keep: true,
        request: { headers: {} },
      })
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
      return result.rows[0]!.value
    }

    it('holds on every signal by default, with an hour for the network and for velocity (5 credits)', () => {
      expect(initialSettings).toEqual({
        hold_disposable: true,
        blocked_domains: [],
        hold_same_network: true,
        same_network_seconds: 3600,
        hold_velocity: true,
        velocity_max: 5,
        velocity_seconds: 3600,
      })
    })

    describe('disposable addresses', () => {
      it('ten disposable addresses confirmed through one referral link earn nothing: held, the place unchanged, waitlist_me as with no referrals', async () => {
        await crowd(7)
        const referrer = await joined()
        const code = await codeOf(referrer)
        // The control: a real friend's confirmation counts at once, 5 places (8th to the 3rd's score; ties to the earlier).
        await joined(address(), code)
        const before = await me(referrer)
        expect(before).toMatchObject({ place: 4, referrals: 1 })

        const cheats = [
          'mailinator.com',
          'yopmail.com',
          'guerrillamail.com',
          'sharklasers.com',
          'x.mailinator.com',
          'temp-mail.org',
          'MAILINATOR.COM',
          'yopmail.fr',
          '10minutemail.com',
          'trashmail.com',
        ]
        const tokens: string[] = []
        for (const [i, domain] of cheats.entries()) tokens.push(await joined(`cheat${i}@${domain}`, code))

        // Exactly what ten people joining without a referral would have made it: only the total grew.
        expect(await me(referrer)).toEqual({ ...before, confirmed_total: before.confirmed_total + 10 })
        expect((await holds()).map((hold) => hold.reason)).toEqual(Array(10).fill('disposable_domain'))
        expect((await holds()).every((hold) => hold.decision === null)).toBe(true)
        // Nor does a cheat's own page or export say anything about it.
        for (const token of tokens.slice(0, 2)) {
          expect(JSON.stringify(await exportMe(token))).not.toMatch(/hold|held|disposable|network|velocity/i)
          expect(await me(token)).toMatchObject({ status: 'confirmed', referrals: 0 })
        }
      })

      it('a domain that only looks like one counts: the match is the domain or a parent domain, not a substring', async () => {
        const referrer = await joined()
        const code = await codeOf(referrer)
        for (const email of [address(), 'ada@mailinator.com.holds.test', 'ada@holdsmailinator.com']) await joined(email, code)
        expect(await holds()).toEqual([])
        expect((await me(referrer)).referrals).toBe(3)
      })
    })

    describe("the referrer's own network", () => {
      it('is held, then granted by the founder: the place moves; a second grant or a refusal afterwards changes nothing', async () => {
        await crowd(7)
        const referrer = await joinedFrom('198.51.100.7')
        expect((await me(referrer)).place).toBe(8)
        await joinedFrom('198.51.100.7', address(), await codeOf(referrer))
        const [hold] = await holds()
        expect(hold).toMatchObject({ reason: 'same_network', decision: null })
        expect(await me(referrer)).toMatchObject({ place: 8, referrals: 0 })

        expect(await decide(hold!.id, true)).toEqual({ id: hold!.id, decision: 'granted', changed: true })
        // Exactly an unheld credit's 5 places: 8th to the 3rd's score, the tie to the 3rd.
        expect(await me(referrer)).toMatchObject({ place: 4, referrals: 1 })
        expect(await decide(hold!.id, true)).toEqual({ id: hold!.id, decision: 'granted', changed: false })
        expect(await decide(hold!.id, false)).toEqual({ id: hold!.id, decision: 'granted', changed: false })
        expect(await me(referrer)).toMatchObject({ place: 4, referrals: 1 })
        expect(await decide(999_999, true)).toBeNull()
      })

      it('counts an IPv6 client in its /64, and a forged first X-Forwarded-For hop changes nothing', async () => {
        const referrer = await joinedFrom('2001:db8:7:7::1')
        const code = await codeOf(referrer)
        await joinedFrom('2001:db8:7:7::abcd', address(), code)
        await joinedFrom(`203.0.113.250, 2001:db8:7:7::2`, address(), code)
        expect((await holds()).map((hold) => hold.reason)).toEqual(['same_network', 'same_network'])
        // Another /64 of the same /48 is another network.
        await joinedFrom('2001:db8:7:8::1', address(), code)
        expect((await me(referrer)).referrals).toBe(1)
      })

      it('refused stays uncounted, and cannot be granted afterwards', async () => {
        const referrer = await joinedFrom('198.51.100.8')
        await joinedFrom('198.51.100.8', address(), await codeOf(referrer))
        const [hold] = await holds()
        expect(await decide(hold!.id, false)).toEqual({ id: hold!.id, decision: 'refused', changed: true })
        expect(await decide(hold!.id, true)).toEqual({ id: hold!.id, decision: 'refused', changed: false })
        expect((await me(referrer)).referrals).toBe(0)
      })

      it('keeps each sign-up’s salted key for the window only, never the address; after the window the same network counts', async () => {
        const referrer = await joinedFrom('198.51.100.9')
        expect(await rowsHolding(db, ['198.51.100.9'])).toEqual([])
        const keys = await db.query<{ client_hash: string }>('select client_hash from private.waitlist_signup_networks')
        expect(keys.rows.length).toBeGreaterThan(0)
        for (const row of keys.rows) expect(row.client_hash).toMatch(/^[0-9a-f]{64}$/)

        await db.exec(`update private.waitlist_signup_networks set created_at = created_at - interval '61 minutes'`)
        await joinedFrom('198.51.100.9', address(), await codeOf(referrer))
        expect(await holds()).toEqual([])
        expect((await me(referrer)).referrals).toBe(1)
        // The next sign-up pruned the keys past the window.
        const old = await db.query(`select 1 from private.waitlist_signup_networks where created_at <= now() - interval '1 hour'`)
        expect(old.rows).toEqual([])
      })

      it('the window cannot be set past an hour (the privacy page promises at most that)', async () => {
        await expect(db.exec('update private.waitlist_referral_settings set same_network_seconds = 3601')).rejects.toThrow()
      })
    })

    describe('velocity', () => {
      it('holds what a referrer gains past velocity_max within the window; later ones count again', async () => {
        await db.exec('update private.waitlist_referral_settings set velocity_max = 2')
        const referrer = await joined()
        const code = await codeOf(referrer)
        for (let i = 0; i < 4; i++) await joined(address(), code)
        expect((await me(referrer)).referrals).toBe(2)
        expect((await holds()).map((hold) => hold.reason)).toEqual(['velocity', 'velocity'])

        await db.exec(`update private.waitlist_referral_ledger set credited_at = credited_at - interval '61 minutes'`)
        await joined(address(), code)
        expect((await me(referrer)).referrals).toBe(3)
      })
    })

    describe("the founders' blocklist", () => {
      it('holds a credit from a blocked domain or its subdomains, whatever the case; not from a domain that merely ends alike', async () => {
        await db.exec(`update private.waitlist_referral_settings set blocked_domains = '{Rival.example}'`)
        const referrer = await joined()
        const code = await codeOf(referrer)
        await joined('a@rival.example', code)
        await joined('b@team.RIVAL.example', code)
        await joined('c@notrival.example', code)
        expect((await holds()).map((hold) => [hold.reason, hold.referred])).toEqual([
          ['blocked_domain', 'a@rival.example'],
          ['blocked_domain', 'b@team.rival.example'],
        ])
        expect((await me(referrer)).referrals).toBe(1)
      })
    })

    it('each signal can be switched off in the settings row', async () => {
      await db.exec('update private.waitlist_referral_settings set hold_disposable = false, hold_same_network = false, hold_velocity = false, velocity_max = 0')
      const referrer = await joinedFrom('198.51.100.10')
      const code = await codeOf(referrer)
      await joined('x@mailinator.com', code)
      await joinedFrom('198.51.100.10', address(), code)
      expect(await holds()).toEqual([])
      expect((await me(referrer)).referrals).toBe(2)
    })

    it('a held credit keeps nothing of a referred person who erased themselves; the referrer’s erasure takes their holds', async () => {
      const referrer = await joined()
      const cheat = await joined('gone@mailinator.com', await codeOf(referrer))
      const id = (await db.query<{ id: string }>(`select id from public.waitlist where email = 'gone@mailinator.com'`)).rows[0]!.id
      expect(await deleteMe(cheat)).toBe(true)
      expect(await holds()).toMatchObject([{ reason: 'disposable_domain', referred: null }])
      // (The erasure e-mail holds the address until it is sent, as for everyone: waitlist-referrals.test.ts.)
      expect(await rowsHolding(db, [id])).toEqual([])
      expect(await deleteMe(referrer)).toBe(true)
      expect(await holds()).toEqual([])
    })

    it('the public key can neither list nor decide held credits, nor read what the holds store', async () => {
      const api = { headers: { 'x-forwarded-for': '198.51.100.99' } }
      for (const sql of [
        'select public.waitlist_held_credits()',
        'select public.waitlist_decide_credit(1, true)',
        'select * from private.waitlist_referral_holds',
        'select * from private.waitlist_signup_networks',
        'update private.waitlist_referral_settings set hold_disposable = false',
      ]) {
        expect(await runAs(db, 'anon', sql, [], { request: api }), sql).toMatchObject({ ok: false, code: '42501' })
      }
    })

    describe('at once', () => {
      it('two grants of one credit count it once; a grant and a refusal: one of them, once', async () => {
        const referrer = await joinedFrom('198.51.100.11')
        const code = await codeOf(referrer)
        await joinedFrom('198.51.100.11', address(), code)
        await joinedFrom('198.51.100.11', address(), code)
        const [first, second] = await holds()
        const twice = await Promise.all([decide(first!.id, true), decide(first!.id, true)])
        expect(twice.map((result) => result!.changed).sort()).toEqual([false, true])
        expect((await me(referrer)).referrals).toBe(1)
        const crossed = await Promise.all([decide(second!.id, true), decide(second!.id, false)])
        expect(crossed.filter((result) => result!.changed)).toHaveLength(1)
        const won = crossed.find((result) => result!.changed)!.decision
        expect((await me(referrer)).referrals).toBe(won === 'granted' ? 2 : 1)
      })

      it('simultaneous confirmations for one referrer count at most velocity_max', async () => {
        await db.exec('update private.waitlist_referral_settings set velocity_max = 2')
        const referrer = await joined()
        const code = await codeOf(referrer)
        const friends = Array.from({ length: 8 }, () => address())
        const tokens: string[] = []
        for (const email of friends) {
          expect(await signUp(email, code, 'Ada', `192.0.2.${friends.indexOf(email) + 1}`)).toMatchObject({ ok: true })
          tokens.push(await mailToken(email))
        }
        expect(await Promise.all(tokens.map((token) => confirm(token)))).toEqual(Array(8).fill('confirmed'))
        expect((await me(referrer)).referrals).toBe(2)
        expect(await holds()).toHaveLength(6)
      })
    })
  },
)
