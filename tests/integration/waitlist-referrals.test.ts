/**
 * Place in line, referrals and a person's own data in the database
 * (supabase/migrations/*_waitlist_referrals.sql), on PGlite and on a real PostgreSQL server, as the
 * API roles with request headers set the way PostgREST sets them: position arithmetic with ties and
 * referrals, credit only after confirmation, self-referral and unknown codes ignored, erasure from
 * every table, and what the public key cannot reach.
 */
import { createHash, randomBytes } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'

let db: WaitlistDb

const targets = await waitlistDbTargets('waitlist-referrals')

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex')
const newToken = () => randomBytes(32).toString('base64url')

type Me = { status: string; place: number | null; confirmed_total: number; referrals: number; referral_code: string }

onEachDatabase(targets, (opened) => (db = opened), () => {
  beforeEach(async () => {
    await db.exec(`
      update private.waitlist_confirmation_settings set token_ttl = interval '7 days', window_seconds = 3600, confirm_per_client = 1000;
      update private.waitlist_referral_settings set own_data_per_client = 60;
      delete from private.waitlist_api_attempts;
      delete from private.waitlist_recent_signups;
      delete from public.waitlist;
    `)
  })

  let counter = 0
  const address = () => `person${++counter}@referrals.test`
  let ip = 0
  // A different client per call unless a test says otherwise, so limits only bite where tested.
  const api = (client = `203.0.113.${(ip++ % 250) + 1}`) => ({ headers: { 'x-forwarded-for': client } })

  const signUp = (email: string, ref?: string | null) =>
    runAs(db, 'anon', 'insert into public.waitlist (name, email, project, ref) values ($1, $2, $3, $4)', ['Ada', email, 'Acme', ref ?? null], { keep: true, request: api() })

  /** What the dispatcher does when it sends the confirmation e-mail: a token whose hash is stored. */
  async function mailToken(email: string): Promise<string> {
    const token = newToken()
    await db.query(`update public.waitlist set token_hash = $2, token_expires_at = now() + interval '7 days' where email_key = lower($1)`, [email, sha256(token)])
    return token
  }
  const confirm = async (token: string) => {
    const result = await runAs<{ answer: string }>(db, 'anon', 'select public.waitlist_confirm($1) as answer', [token], { keep: true, request: api() })
    if (!result.ok) throw new Error(result.message)
    return result.rows[0]?.answer
  }
  /** Signs up, "receives" the e-mail and opens its link: a confirmed entry and its token. */
  async function joined(email = address(), ref?: string | null): Promise<{ email: string; token: string }> {
    expect(await signUp(email, ref)).toEqual({ ok: true, rows: [] })
    const token = await mailToken(email)
    expect(await confirm(token)).toBe('confirmed')
    return { email, token }
  }
  async function me(token: string, places?: number, client?: string): Promise<Me | null> {
    const result =
      places === undefined
        ? await runAs<{ me: Me | null }>(db, 'anon', 'select public.waitlist_me($1) as me', [token], { keep: true, request: api(client) })
        : await runAs<{ me: Me | null }>(db, 'anon', 'select public.waitlist_me($1, $2) as me', [token, places], { keep: true, request: api(client) })
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
    return result.rows[0]?.me ?? null
  }
  const codeOf = async (token: string) => (await me(token))!.referral_code
  const placeOf = async (token: string, places?: number) => (await me(token, places))!.place

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
      const attempt = await runAs(db, 'anon', 'insert into public.waitlist (name, email, referral_code) values ($1, $2, $3)', ['Eve', address(), 'AAAAAAAAAAAAAAAAAAAAAA'], {
        request: api(),
      })
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
      const referrer = await joined('Self@Referrals.test')
      const code = await codeOf(referrer.token)
      // An expired pending entry of the same address gives way to a new sign-up: the only way the
      // same address can sign up again, and it must not credit itself.
      await db.query(`update public.waitlist set status = 'pending', confirmed_at = null, confirm_by = now() - interval '1 second', token_expires_at = now() - interval '1 second' where email_key = 'self@referrals.test'`)
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
      expect(await me(pendingToken)).toMatchObject({ status: 'pending', place: null, confirmed_total: 3 })
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
      // The number comes from the site's content: 2 places moves it from 6th to the 4th's score,
      // and the tie goes to the 4th.
      expect(await placeOf(sixth.token, 2)).toBe(5)
      expect(await placeOf(people[3]!.token, 2)).toBe(4)
      expect(await placeOf(sixth.token, 0)).toBe(6)
      // Out-of-range numbers are clamped, never an error: no place above 1st.
      expect(await placeOf(sixth.token, -50)).toBe(6)
      expect(await placeOf(sixth.token, 1_000_000)).toBe(1)
      // Places stay a permutation of 1..n whatever the bonus.
      const places = await Promise.all(people.map((p) => placeOf(p.token, 1_000_000)))
      expect(new Set(places).size).toBe(people.length)
    })

    it('counts only confirmed referrals: an unconfirmed one moves nobody', async () => {
      const people = [await joined(), await joined(), await joined()]
      expect(await signUp(address(), await codeOf(people[2]!.token))).toEqual({ ok: true, rows: [] })
      expect(await placeOf(people[2]!.token)).toBe(3)
    })
  })

  async function exportMe(token: string) {
    const result = await runAs<{ data: Record<string, unknown> | null }>(db, 'anon', 'select public.waitlist_export_me($1) as data', [token], { keep: true, request: api() })
    if (!result.ok) throw new Error(result.message)
    return result.rows[0]?.data ?? null
  }
  async function deleteMe(token: string) {
    const result = await runAs<{ done: boolean }>(db, 'anon', 'select public.waitlist_delete_me($1) as done', [token], { keep: true, request: api() })
    if (!result.ok) throw new Error(result.message)
    return result.rows[0]?.done
  }

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

    it('erases the entry and its messages from every table; the people they referred keep theirs', async () => {
      const person = await joined()
      const friend = await joined(address(), await codeOf(person.token))
      const id = (await db.query<{ id: string }>('select id from public.waitlist where email = $1', [person.email])).rows[0]!.id
      expect(await deleteMe(person.token)).toBe(true)
      // Every table that could hold something of theirs, found from the catalogue rather than listed.
      const tables = await db.query<{ schema: string; name: string }>(`
        select c.table_schema as schema, c.table_name as name from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
         where c.table_schema in ('public', 'private') and c.data_type = 'uuid' group by 1, 2`)
      expect(tables.rows.length).toBeGreaterThan(1)
      for (const { schema, name } of tables.rows) {
        const found = await db.query(`select 1 from ${schema}.${name} t where to_jsonb(t)::text like '%' || $1 || '%' or to_jsonb(t)::text ilike '%' || $2 || '%'`, [id, person.email])
        expect(found.rows, `${schema}.${name}`).toEqual([])
      }
      expect(await exportMe(person.token)).toBeNull()
      expect(await deleteMe(person.token)).toBe(false)
      expect(await me(friend.token)).toMatchObject({ status: 'confirmed', place: 1 })
    })
  })

  describe('what the public key cannot do', () => {
    it('cannot read, change or delete anyone’s row directly', async () => {
      await joined()
      for (const sql of ['select * from public.waitlist', 'update public.waitlist set referral_credits = 99', 'delete from public.waitlist', 'select * from public.waitlist_outbox']) {
        expect(await runAs(db, 'anon', sql, [], { request: api() }), sql).toMatchObject({ ok: false, code: '42501' })
      }
      expect(await runAs(db, 'anon', 'select private.waitlist_place(gen_random_uuid(), 5)', [], { request: api() })).toMatchObject({ ok: false, code: '42501' })
    })

    it('answers unknown, malformed, cut-off and look-alike tokens alike, with no data', async () => {
      const { token } = await joined()
      const others = [newToken(), token.slice(0, 42), `${token}=`, token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(), sha256(token), '', ' '.repeat(43), `${token.slice(0, 42)}\u0430`]
      for (const other of others) {
        expect(await me(other), other).toBeNull()
        expect(await exportMe(other), other).toBeNull()
        expect(await deleteMe(other), other).toBe(false)
      }
      expect(await me(token)).not.toBeNull()
    })

    it('opens nothing with a pending entry’s expired link', async () => {
      const email = address()
      expect(await signUp(email)).toEqual({ ok: true, rows: [] })
      const token = await mailToken(email)
      await db.query(`update public.waitlist set token_expires_at = now() - interval '1 second' where email = $1`, [email])
      expect(await me(token)).toBeNull()
      expect(await deleteMe(token)).toBe(false)
      expect((await db.query('select 1 from public.waitlist where email = $1', [email])).rows).toHaveLength(1)
    })

    it('limits guessing per network, also with a forged first X-Forwarded-For hop', async () => {
      await db.exec('update private.waitlist_referral_settings set own_data_per_client = 3')
      const client = '198.51.100.77'
      for (let i = 0; i < 3; i++) expect(await me(newToken(), undefined, `10.0.0.${i}, ${client}`)).toBeNull()
      await expect(me(newToken(), undefined, `10.9.9.9, ${client}`)).rejects.toThrow(/Too many attempts/)
      // Another network is not affected.
      expect(await me(newToken(), undefined, '198.51.100.78')).toBeNull()
    })
  })
})
