/**
 * Supabase's statement timeouts per API role (tools/supabase-local/statement-timeouts.ts) hold in the
 * tests' databases (PGlite and PostgreSQL, through runAs as PostgREST runs a request) and in the local
 * stand-in's API: a call that would be cut in production (anon 3 s) fails here too, and what a
 * role may run longer (authenticated 8 s) goes through.
 */
import { afterAll, expect, it } from 'vitest'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'
import { onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'

let db: WaitlistDb
const targets = await waitlistDbTargets('waitlist-timeouts')

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    it('cuts anon at 3 s with PostgreSQL’s own error, lets authenticated run past it, and stores the roles’ settings', async () => {
      expect(await runAs(db, 'anon', 'select pg_sleep(3.3)')).toMatchObject({ ok: false, code: '57014' })
      expect(await runAs(db, 'authenticated', 'select pg_sleep(3.3)')).toMatchObject({ ok: true })
      const { rows } = await db.query<{ role: string; setting: string[] }>(`
      select r.rolname as role, s.setconfig as setting from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
       where r.rolname in ('anon', 'authenticated') order by 1`)
      expect(rows).toEqual([
        { role: 'anon', setting: ['statement_timeout=3s'] },
        { role: 'authenticated', setting: ['statement_timeout=8s'] },
      ])
    }, 30_000)
  },
)

let local: LocalSupabase | undefined
afterAll(async () => {
  await local?.close()
})

it('the local stand-in answers a call past anon’s 3 s as PostgREST does (500, 57014) and keeps nothing of it', async () => {
  local = await startLocalSupabase({ port: 0 })
  await local.db.exec(`
    create table public.timeout_probe (at timestamptz default now());
    grant insert on public.timeout_probe to anon;
    create function public.timeout_probe_sleep(seconds double precision) returns void language sql security definer set search_path = ''
      as $$ insert into public.timeout_probe default values; select pg_catalog.pg_sleep(seconds) $$;
    grant execute on function public.timeout_probe_sleep(double precision) to anon;`)
  const call = (seconds: number) =>
    fetch(`${local!.url}/rest/v1/rpc/timeout_probe_sleep`, {
      method: 'POST',
      headers: { apikey: local!.anonKey, Authorization: `Bearer ${local!.anonKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ seconds }),
    })
  const cut = await call(3.3)
  expect({ status: cut.status, body: await cut.json() }).toMatchObject({ status: 500, body: { code: '57014' } })
  expect((await call(0.1)).status).toBe(204)
  const { rows } = await local.db.query<{ n: number }>('select count(*)::int as n from public.timeout_probe')
  expect(rows[0]?.n).toBe(1)
}, 30_000)
