/**
 * Experiments in the database (supabase/schemas/12_experiments.sql), attacked as a visitor with the
 * public key would, on PGlite and on a real PostgreSQL server: a sign-up records only variants of
 * running experiments and drops everything else without refusing the sign-up; the set of running
 * experiments is replaced whole by the service role and by nobody else; the public key reads none
 * of it; erasure leaves nothing of the person's variants; the founders' counts.
 */
import { beforeEach, expect, it } from 'vitest'
import { emptyList, onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'
import { waitlistPeople } from '../helpers/waitlist-people'

let db: WaitlistDb

const targets = await waitlistDbTargets('experiments-data-db')

const RUNNING = [
  { key: 'hero-words', variants: ['b', 'c'] },
  { key: 'pricing-label', variants: ['annual'] },
]

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    const { address, api, signUp, mailToken, confirm, deleteMe } = waitlistPeople(() => db, 'experiments.test')

    const replace = (running: unknown, role = 'service_role') =>
      runAs<{ value: number }>(db, role, 'select public.waitlist_replace_experiments($1::jsonb) as value', [JSON.stringify(running)], {
        keep: true,
        request: api(),
      })
    const set = async () =>
      (await db.query<{ experiment: string; variant: string }>('select experiment, variant from private.waitlist_experiment_variants order by 1, 2')).rows.map(
        (row) => `${row.experiment}=${row.variant}`,
      )

    /** A sign-up through the public key sending `experiments` as the raw JSON text given; its stored value. */
    async function signUpWith(experimentsJson: string | null): Promise<unknown> {
      const email = address()
      const outcome = await runAs(
        db,
        'anon',
        'insert into public.waitlist (name, email, project, experiments) values ($1, $2, $3, $4::jsonb)',
        ['Ada', email, '', experimentsJson],
        {
          keep: true,
          request: api(),
        },
      )
      expect(outcome, experimentsJson ?? 'null').toEqual({ ok: true, rows: [] })
      return (await db.query<{ experiments: unknown }>('select experiments from public.waitlist where email = $1', [email])).rows[0]?.experiments
    }

    beforeEach(async () => {
      await emptyList(db, 'private.waitlist_experiment_variants')
      expect(await replace(RUNNING)).toEqual({ ok: true, rows: [{ value: 5 }] })
    })

    it('the service role replaces the set whole, control added to each experiment', async () => {
      expect(await set()).toEqual(['hero-words=b', 'hero-words=c', 'hero-words=control', 'pricing-label=annual', 'pricing-label=control'])
      expect(await replace([{ key: 'hero-words', variants: ['b'] }])).toEqual({ ok: true, rows: [{ value: 2 }] })
      expect(await set()).toEqual(['hero-words=b', 'hero-words=control'])
      // Every experiment stopped: an empty set, which is what Sanity then says.
      expect(await replace([])).toEqual({ ok: true, rows: [{ value: 0 }] })
      expect(await set()).toEqual([])
    })

    it('a malformed set is refused whole and the last set is kept', async () => {
      const before = await set()
      for (const running of [
        null,
        { key: 'hero-words', variants: ['b'] },
        [{ key: 'Hero_Words', variants: ['b'] }],
        [{ key: 'hero-words', variants: ['control'] }],
        [{ key: 'hero-words', variants: [{ nested: 'b' }] }],
        [{ key: 'hero-words', variants: 'b' }],
        [{ key: 'hero-words' }],
        [{ key: 'hero-words', variants: ['b'] }, 'junk'],
        Array.from({ length: 101 }, (_, i) => ({ key: `e${i}x`, variants: [] })),
      ]) {
        expect(await replace(running), JSON.stringify(running).slice(0, 80)).toMatchObject({ ok: false, code: '22023' })
        expect(await set()).toEqual(before)
      }
    })

    it('a sign-up keeps only running experiments’ known variants, and is stored whatever else it sends', async () => {
      expect(await signUpWith(JSON.stringify({ 'hero-words': 'b', 'pricing-label': 'control' }))).toEqual({ 'hero-words': 'b', 'pricing-label': 'control' })
      // Unknown experiment, unknown variant, malformed keys, nested junk, a number, a null.
      expect(
        await signUpWith(
          JSON.stringify({
            'hero-words': 'z',
            'never-ran': 'b',
            HERO: 'b',
            'pricing-label': { variant: 'annual' },
            'hero-words ': 'b',
            'pricing-label\t': 'annual',
            x: 1,
            y: null,
          }),
        ),
      ).toEqual({})
      expect(await signUpWith(JSON.stringify({ 'hero-words': ['b'], 'pricing-label': 'annual' }))).toEqual({ 'pricing-label': 'annual' })
      // Not an object at all.
      for (const junk of ['[["hero-words","b"]]', '"hero-words=b"', '42', 'true', 'null', null]) expect(await signUpWith(junk), String(junk)).toEqual({})
    })

    it('a stopped experiment is no longer recorded; what was recorded while it ran stays', async () => {
      expect(await signUpWith(JSON.stringify({ 'pricing-label': 'annual' }))).toEqual({ 'pricing-label': 'annual' })
      await replace([{ key: 'hero-words', variants: ['b', 'c'] }])
      expect(await signUpWith(JSON.stringify({ 'pricing-label': 'annual', 'hero-words': 'c' }))).toEqual({ 'hero-words': 'c' })
      const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from public.waitlist where experiments ? 'pricing-label'`)
      expect(rows[0]?.n).toBe(1)
    })

    it('a huge object of junk around one real pair stores the pair alone, and the sign-up succeeds', async () => {
      const huge: Record<string, unknown> = {}
      for (let i = 0; i < 20_000; i++) huge[`junk-${i}`] = i % 2 ? 'b' : { deep: [i, { deeper: 'x'.repeat(10) }] }
      huge['hero-words'] = 'c'
      expect(await signUpWith(JSON.stringify(huge))).toEqual({ 'hero-words': 'c' })
    })

    it('the public key cannot read the set or the recorded variants, replace the set, or read the counts', async () => {
      await signUpWith(JSON.stringify({ 'hero-words': 'b' }))
      const denied = { ok: false, code: '42501' }
      expect(await runAs(db, 'anon', 'select * from private.waitlist_experiment_variants')).toMatchObject(denied)
      expect(await runAs(db, 'anon', 'select experiments from public.waitlist')).toMatchObject(denied)
      expect(await replace([{ key: 'evil', variants: ['x'] }], 'anon')).toMatchObject(denied)
      expect(await replace([{ key: 'evil', variants: ['x'] }], 'authenticated')).toMatchObject(denied)
      expect(await runAs(db, 'anon', 'select * from public.waitlist_experiment_results()')).toMatchObject(denied)
      expect(await runAs(db, 'anon', 'update public.waitlist set experiments = $1', ['{"hero-words":"c"}'])).toMatchObject(denied)
      expect(await runAs(db, 'service_role', 'update public.waitlist set experiments = $1', ['{"hero-words":"c"}'])).toMatchObject(denied)
      expect(await set()).toEqual(['hero-words=b', 'hero-words=c', 'hero-words=control', 'pricing-label=annual', 'pricing-label=control'])
    })

    it('counts sign-ups and confirmations per experiment and variant for the service role', async () => {
      const join = async (experiments: Record<string, string>, confirmed: boolean) => {
        const email = address()
        expect(
          await runAs(
            db,
            'anon',
            'insert into public.waitlist (name, email, experiments) values ($1, $2, $3::jsonb)',
            ['Ada', email, JSON.stringify(experiments)],
            { keep: true, request: api() },
          ),
        ).toMatchObject({ ok: true })
        if (confirmed) expect(await confirm(await mailToken(email))).toBe('confirmed')
      }
      await join({ 'hero-words': 'control' }, true)
      await join({ 'hero-words': 'control' }, false)
      await join({ 'hero-words': 'b', 'pricing-label': 'annual' }, true)
      await join({ 'hero-words': 'b' }, true)
      await join({}, true)
      const results = await runAs(db, 'service_role', 'select * from public.waitlist_experiment_results()')
      expect(results).toEqual({
        ok: true,
        rows: [
          { experiment: 'hero-words', variant: 'b', signups: 2, confirmations: 2 },
          { experiment: 'hero-words', variant: 'control', signups: 2, confirmations: 1 },
          { experiment: 'pricing-label', variant: 'annual', signups: 1, confirmations: 1 },
        ],
      })
    })

    it('erasure deletes the person’s recorded variants with their entry, and the export shows them', async () => {
      const email = address()
      expect(
        await runAs(db, 'anon', 'insert into public.waitlist (name, email, experiments) values ($1, $2, $3::jsonb)', ['Ada', email, '{"hero-words":"b"}'], {
          keep: true,
          request: api(),
        }),
      ).toMatchObject({ ok: true })
      const token = await mailToken(email)
      expect(await confirm(token)).toBe('confirmed')
      const exported = await runAs<{ value: { entry: { experiments: unknown } } }>(db, 'anon', 'select public.waitlist_export_me($1) as value', [token], {
        keep: true,
        request: api(),
      })
      expect(exported.ok && exported.rows[0]?.value.entry.experiments).toEqual({ 'hero-words': 'b' })
      expect(await deleteMe(token)).toBe(true)
      const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from public.waitlist where experiments <> '{}'::jsonb`)
      expect(rows[0]?.n).toBe(0)
      expect((await runAs(db, 'service_role', 'select * from public.waitlist_experiment_results()')) as unknown).toEqual({ ok: true, rows: [] })
    })

    it('the plain insert the site made before experiments still works, recording none', async () => {
      expect(await signUp(address())).toEqual({ ok: true, rows: [] })
      const { rows } = await db.query<{ experiments: unknown }>('select experiments from public.waitlist')
      expect(rows.map((row) => row.experiments)).toEqual([{}])
    })
  },
)
