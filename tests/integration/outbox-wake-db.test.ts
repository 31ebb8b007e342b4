/**
 * The outbox's wake-up through pg_net (supabase/schemas/07_outbox_wake.sql), on PGlite and on a real
 * PostgreSQL server, neither of which has pg_net: the migrations applied cleanly and a new message
 * wakes nobody; with a stand-in `net.http_post` and a stand-in Vault (the shapes hosted Supabase
 * has), each new message, from a visitor's sign-up or several in one statement, is one call with
 * the Vault's address and bearer secret; a missing secret or a failing pg_net never fails the insert.
 */
import { beforeEach, expect, it } from 'vitest'
import { emptyList, INSERT_WAITLIST, onEachDatabase, runAs, waitlistDbTargets, type WaitlistDb } from '../helpers/waitlist-db'

let db: WaitlistDb

const targets = await waitlistDbTargets('outbox-wake-db')

const URL_SECRET = 'https://site.example/api/outbox/dispatch'
const BEARER = 'a-dispatch-secret-of-at-least-24-characters'

/** pg_net's and Vault's shapes as on hosted Supabase, recording each call instead of sending it. */
const STAND_INS = `
  create schema if not exists net;
  create table if not exists net.calls (url text, body jsonb, headers jsonb, timeout_milliseconds integer);
  create or replace function net.http_post(url text, body jsonb default '{}'::jsonb, params jsonb default '{}'::jsonb,
    headers jsonb default '{"Content-Type": "application/json"}'::jsonb, timeout_milliseconds integer default 5000)
  returns bigint language plpgsql as $$
  begin
    if url = 'fail' then raise exception 'pg_net refused'; end if;
    insert into net.calls values (url, body, headers, timeout_milliseconds);
    return 1;
  end $$;
  create schema if not exists vault;
  create table if not exists vault.decrypted_secrets (name text primary key, decrypted_secret text);
`

const ERASURE = `insert into public.waitlist_outbox (kind, payload) values ('erasure_email', '{"email": "gone@example.com", "name": "Gone"}')`

onEachDatabase(
  targets,
  (opened) => (db = opened),
  () => {
    const calls = async () => (await db.query<{ url: string; body: unknown; headers: Record<string, string> }>('select url, body, headers from net.calls')).rows
    const messages = async () => Number((await db.query<{ n: string }>('select count(*) as n from public.waitlist_outbox')).rows[0]?.n)

    beforeEach(() => emptyList(db))

    it('applies without pg_net, and a new message is queued as before, waking nobody', async () => {
      expect((await db.query(`select 1 from pg_extension where extname = 'pg_net'`)).rows).toEqual([])
      expect((await db.query(`select tgname from pg_trigger where tgname = 'waitlist_outbox_wake'`)).rows).toHaveLength(1)
      await db.exec(ERASURE)
      expect(await messages()).toBe(1)
    })

    it('with pg_net and the Vault secrets, each new message is one call to the dispatch route with the bearer secret', async () => {
      await db.exec(STAND_INS)
      await db.exec(`delete from net.calls; delete from vault.decrypted_secrets;
        insert into vault.decrypted_secrets values ('outbox_dispatch_url', '${URL_SECRET}'), ('outbox_dispatch_secret', '${BEARER}')`)
      const signup = await runAs(db, 'anon', INSERT_WAITLIST, ['Ada Wake', 'ada.wake@example.com', 'Wake-up'], { keep: true })
      expect(signup.ok, JSON.stringify(signup)).toBe(true)
      expect(await messages()).toBe(1)
      expect(await calls()).toEqual([{ url: URL_SECRET, body: {}, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${BEARER}` } }])

      await db.exec(`${ERASURE}, ('erasure_email', '{"email": "b@example.com", "name": "B"}'), ('erasure_email', '{"email": "c@example.com", "name": "C"}')`)
      expect(await messages()).toBe(4)
      expect(await calls()).toHaveLength(4)
    })

    it('a missing Vault secret or a failing pg_net leaves the message queued and calls nothing', async () => {
      await db.exec(STAND_INS)
      await db.exec(
        `delete from net.calls; delete from vault.decrypted_secrets; insert into vault.decrypted_secrets values ('outbox_dispatch_url', '${URL_SECRET}')`,
      )
      await db.exec(ERASURE)
      await db.exec(
        `insert into vault.decrypted_secrets values ('outbox_dispatch_secret', '${BEARER}'); update vault.decrypted_secrets set decrypted_secret = 'fail' where name = 'outbox_dispatch_url'`,
      )
      await db.exec(ERASURE)
      expect(await messages()).toBe(2)
      expect(await calls()).toEqual([])
    })
  },
)
