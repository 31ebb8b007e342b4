/**
 * Place in line, referrals and a person's own data in the database
 * (supabase/migrations/*_waitlist_referrals.sql), on PGlite and on a real PostgreSQL server, as the
 * API roles with request headers set the way PostgREST sets them: position arithmetic with ties and
 * referrals, credit only after confirmation, self-referral and unknown codes ignored, erasure from
 * every table, and what the public key cannot reach.
 */
import { beforeEach, describe, expect, it } from 'vitest'
import { onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'
import { newToken, rowsHolding, sha256, waitlistPeople } from '../helpers/waitlist-people'

let db: WaitlistDb

const targets = await waitlistDbTargets('waitlist-referrals')

type Me = { status: string; place: number | null; confirmed_total: number; referrals: number; referral_code: string }

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    beforeEach(async () => {
      await db.exec(`
      update private.waitlist_confirmation_settings set token_ttl = interval '7 days', window_seconds = 3600, confirm_per_client = 1000;
      update private.waitlist_referral_settings set own_data_per_client = 60, places_per_referral = 5;
      update private.waitlist_mail_caps set unproven_per_recipient = 3, emails_per_hour = 500;
      delete from private.waitlist_mail_log;
      delete from private.waitlist_api_attempts;
      delete from private.waitlist_recent_signups;
      delete from public.waitlist;
      delete from public.waitlist_outbox;
    `)
    })

    const { address, api, signUp, mailToken, confirm, joined, exportMe, deleteMe } = waitlistPeople(() => db, 'referrals.test')
    async function me(token: string, client?: string): Promise<Me | null> {
      const result = await runAs<{ me: Me | null }>(db, 'anon', 'select public.waitlist_me($1) as me', [token], { keep: true, request: api(client) })
      if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
      return result.rows[0]?.me ?? null
    }
    const codeOf = async (token: string) => (await me(token))!.referral_code
    /** The place `token`'s holder is shown, with each referral worth `places` (the database's setting). */
    async function placeOf(token: string, places = 5) {
      await db.query('update private.waitlist_referral_settings set places_per_referral = $1', [places])
      return (await me(token))!.place
    }

    describe('the referral code', () => {
      it('is random, 22 URL-safe characters, unique, and says nothing about its owner', async () => {
        const a = await joined('same.name@referrals.test')
        const b = await joined('same.name@referrals2.test')
        const [codeA, codeB] = [await codeOf(a.token), await codeOf(b.token)]
        for (const code of [codeA, codeB]) {
          expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/)
          expect(code.toLowerCase()).not.toContain('same')
        }
        expect(codeA).not.toBe(codeB)
      })

      it('cannot be chosen by the client, and `ref` is never stored', async () => {
        const attempt = await runAs(
          db,
          'anon',
          'insert into public.waitlist (name, email, referral_code) values ($1, $2, $3)',
          ['Eve', address(), 'AAAAAAAAAAAAAAAAAAAAAA'],
          {
            request: api(),
          },
        )
        expect(attempt).toMatchObject({ ok: false, code: '42501' })
        const { email } = await joined()
        const stored = await db.query<{ ref: string | null }>('select ref from public.waitlist where email = $1', [email])
        expect(stored.rows).toEqual([{ ref: null }])
      })
    })

    describe('credit', () => {
      it('counts a referral only once the referred person confirms', async () => {
        const referrer = await joined()
        const code = await codeOf(referrer.token)
        const friend = address()
        expect(await signUp(friend, code)).toEqual({ ok: true, rows: [] })
        expect((await me(referrer.token))!.referrals).toBe(0)
        expect(await confirm(await mailToken(friend))).toBe('confirmed')
        expect((await me(referrer.token))!.referrals).toBe(1)
      })

      it('ignores self-referral (the same address, however it is spelt), unknown and malformed codes, and the sign-up still goes through', async () => {
        expect(await signUp('Self@Referrals.test')).toEqual({ ok: true, rows: [] })
        const code = (await db.query<{ referral_code: string }>(`select referral_code from public.waitlist where email_key = 'self@referrals.test'`)).rows[0]!
          .referral_code
        // An expired pending entry of the same address gives way to a new sign-up: the only way the
        // same address can sign up again, and it must not credit itself.
        await db.query(`update public.waitlist set confirm_by = now() - interval '1 second' where email_key = 'self@referrals.test'`)
        expect(await signUp('self@REFERRALS.test', code)).toEqual({ ok: true, rows: [] })
        for (const ref of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', `${code}x`, `${code.slice(0, 21)}\u200B`, "' or 1=1 --", '']) {
          const email = address()
          expect(await signUp(email, ref)).toEqual({ ok: true, rows: [] })
          const row = await db.query<{ referred_by: string | null }>('select referred_by from public.waitlist where email = $1', [email])
          expect(row.rows).toEqual([{ referred_by: null }])
        }
        const self = await db.query<{ referred_by: string | null }>(`select referred_by from public.waitlist where email_key = 'self@referrals.test'`)
        expect(self.rows).toEqual([{ referred_by: null }])
      })

      it('stays with the referrer when the referred person erases themselves', async () => {
        const referrer = await joined()
        const friend = await joined(address(), await codeOf(referrer.token))
        expect((await me(referrer.token))!.referrals).toBe(1)
        expect(await deleteMe(friend.token)).toBe(true)
        expect((await me(referrer.token))!.referrals).toBe(1)
      })
    })

    describe('place in line', () => {
      it('is the order of confirmation; pending entries have none and do not count', async () => {
        const people = [await joined(), await joined(), await joined()]
        const pending = address()
        expect(await signUp(pending)).toEqual({ ok: true, rows: [] })
        const pendingToken = await mailToken(pending)
        expect(await Promise.all(people.map((p) => placeOf(p.token)))).toEqual([1, 2, 3])
        expect(await me(pendingToken)).toEqual({ status: 'pending', confirm_by: expect.any(String) })
      })

      it('moves a referrer up N places per confirmed referral; ties go to the earlier confirmation', async () => {
        const people: { token: string }[] = []
        for (let i = 0; i < 10; i++) people.push(await joined())
        const sixth = people[5]!
        // One confirmed referral, 5 places: from 6th to the score of 1st; the tie goes to the 1st.
        await joined(address(), await codeOf(sixth.token))
        expect(await placeOf(sixth.token)).toBe(2)
        expect(await placeOf(people[0]!.token)).toBe(1)
        expect(await placeOf(people[1]!.token)).toBe(3)
        // The number is the database's setting: 2 places moves it from 6th to the 4th's score, and the
        // tie goes to the 4th.
        expect(await placeOf(sixth.token, 2)).toBe(5)
        expect(await placeOf(people[3]!.token, 2)).toBe(4)
        expect(await placeOf(sixth.token, 0)).toBe(6)
        // The setting stays within 0..1000; at the top no place is above 1st.
        await expect(db.query('update private.waitlist_referral_settings set places_per_referral = -50')).rejects.toThrow()
        await expect(db.query('update private.waitlist_referral_settings set places_per_referral = 1001')).rejects.toThrow()
        expect(await placeOf(sixth.token, 1000)).toBe(1)
        // Places stay a permutation of 1..n whatever the bonus.
        const places = await Promise.all(people.map((p) => placeOf(p.token, 1000)))
        expect(new Set(places).size).toBe(people.length)
      })

      it('counts only confirmed referrals: an unconfirmed one moves nobody', async () => {
        const people = [await joined(), await joined(), await joined()]
        expect(await signUp(address(), await codeOf(people[2]!.token))).toEqual({ ok: true, rows: [] })
        expect(await placeOf(people[2]!.token)).toBe(3)
      })
    })

    describe('own data', () => {
      it('exports everything stored about the holder, and nothing about the person who referred them', async () => {
        const referrer = await joined('referrer@referrals.test')
        const person = await joined('me@referrals.test', await codeOf(referrer.token))
        const data = (await exportMe(person.token)) as { entry: Record<string, unknown>; messages: { kind: string }[] }
        expect(data.entry).toMatchObject({ email: 'me@referrals.test', name: 'Ada', project: 'Acme', status: 'confirmed', came_through_a_referral_link: true })
        expect(Object.keys(data.entry)).not.toEqual(expect.arrayContaining(['token_hash']))
        expect(Object.keys(data.entry)).not.toContain('referred_by')
        expect(JSON.stringify(data)).not.toContain('referrer@referrals.test')
        expect(data.messages.map((m) => m.kind).sort()).toEqual(['confirmation_email', 'slack_confirmed'])
      })

      it('erases the entry and its messages from every table; only the erasure e-mail holds the address until it is sent; the people they referred keep theirs', async () => {
        const name = 'Zebulon Erasmus-Quill'
        const person = await joined(address(), null, name)
        const friend = await joined(address(), await codeOf(person.token))
        const id = (await db.query<{ id: string }>('select id from public.waitlist where email = $1', [person.email])).rows[0]!.id
        expect((await rowsHolding(db, [id, person.email, name])).length).toBeGreaterThan(1)
        expect(await deleteMe(person.token)).toBe(true)
        // The one allowed exception: the e-mail confirming the erasure holds the address and name
        // until it is sent, and nothing else (no entry id, no message of theirs).
        expect(await rowsHolding(db, [id, person.email, name])).toEqual([
          {
            table: 'public.waitlist_outbox',
            row: expect.objectContaining({ kind: 'erasure_email', status: 'pending', entry_id: null, payload: { email: person.email, name, language: 'en' } }),
          },
        ])
        // The dispatcher sends it (claim, then mark sent, as the outbox dispatcher does after SMTP accepted it).
        const service = <T>(sql: string, params: unknown[]) => runAs<T>(db, 'service_role', sql, params, { keep: true, request: { headers: {} } })
        const claimed = await service<{ claimed: { id: string; lease_id: string; kind: string; entry: null }[] }>(
          'select public.waitlist_outbox_claim(10) as claimed',
          [],
        )
        const message = claimed.ok ? claimed.rows[0]!.claimed.find((m) => m.kind === 'erasure_email') : undefined
        expect(message).toMatchObject({ entry: null })
        expect(await service('select public.waitlist_outbox_begin_send($1, $2)', [message!.id, message!.lease_id])).toMatchObject({ ok: true })
        expect(await service('select public.waitlist_outbox_complete($1, $2)', [message!.id, message!.lease_id])).toMatchObject({ ok: true })
        // Now no table holds the id, the address or the name.
        expect(await rowsHolding(db, [id, person.email, name])).toEqual([])
        expect(await exportMe(person.token)).toBeNull()
        expect(await deleteMe(person.token)).toBe(false)
        expect(await me(friend.token)).toMatchObject({ status: 'confirmed', place: 1 })
      })
    })

    describe('what the public key cannot do', () => {
      it('cannot read, change or delete anyone’s row directly', async () => {
        await joined()
        for (const sql of [
          'select * from public.waitlist',
          'update public.waitlist set referral_credits = 99',
          'delete from public.waitlist',
          'select * from public.waitlist_outbox',
        ]) {
          expect(await runAs(db, 'anon', sql, [], { request: api() }), sql).toMatchObject({ ok: false, code: '42501' })
        }
        expect(await runAs(db, 'anon', 'select private.waitlist_place(gen_random_uuid())', [], { request: api() })).toMatchObject({ ok: false, code: '42501' })
      })

      it('answers unknown, malformed, cut-off and look-alike tokens alike, with no data', async () => {
        const { token } = await joined()
        const others = [
          newToken(),
          token.slice(0, 42),
          `${token}=`,
          token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
          sha256(token),
          '',
          ' '.repeat(43),
          `${token.slice(0, 42)}\u0430`,
        ]
        for (const other of others) {
          expect(await me(other), other).toBeNull()
          expect(await exportMe(other), other).toBeNull()
          expect(await deleteMe(other), other).toBe(false)
        }
        expect(await me(token)).not.toBeNull()
      })

      it('opens nothing with a pending entry’s expired link (it says only "expired")', async () => {
        const email = address()
        expect(await signUp(email)).toEqual({ ok: true, rows: [] })
        const token = await mailToken(email)
        await db.query(`update public.waitlist set confirm_by = now() - interval '1 second' where email = $1`, [email])
        expect(await me(token)).toEqual({ status: 'expired' })
        expect(await exportMe(token)).toBeNull()
        expect(await deleteMe(token)).toBe(false)
        expect((await db.query('select 1 from public.waitlist where email = $1', [email])).rows).toHaveLength(1)
      })

      it('limits guessing per network, also with a forged first X-Forwarded-For hop', async () => {
        await db.exec('update private.waitlist_referral_settings set own_data_per_client = 3')
        const client = '198.51.100.77'
        for (let i = 0; i < 3; i++) expect(await me(newToken(), `10.0.0.${i}, ${client}`)).toBeNull()
        await expect(me(newToken(), `10.9.9.9, ${client}`)).rejects.toThrow(/Too many attempts/)
        // Another network is not affected.
        expect(await me(newToken(), '198.51.100.78')).toBeNull()
      })
    })
  },
)
