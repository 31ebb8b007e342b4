import type { PGlite } from '@electric-sql/pglite'
import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WAITLIST_EMAIL_PATTERN_SOURCE, WAITLIST_INVISIBLE_CLASS, WAITLIST_WHITESPACE } from '@/components/waitlist/rules'
import { applyMigrations, listMigrations } from '@/tools/supabase-local/migrate'
import { migratedPglite } from '@/tools/supabase-local/migrated-pglite'
import { createWaitlistDb, INSERT_WAITLIST, runAs } from '../helpers/waitlist-db'

let db: PGlite

beforeAll(async () => {
  db = await createWaitlistDb()
})
afterAll(async () => {
  await db.close()
})

const insertAnon = (name: unknown, email: unknown, project: unknown = '', keep = false) => runAs(db, 'anon', INSERT_WAITLIST, [name, email, project], { keep })

describe('waitlist migration', () => {
  it('is recorded once and not re-applied', async () => {
    expect(await applyMigrations(db)).toEqual([])
    const { rows } = await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations order by version')
    const files = await listMigrations()
    expect(files.length).toBeGreaterThanOrEqual(2)
    expect(rows.map((row) => row.version)).toEqual(files.map((file) => file.version))
  })

  it('turns row-level security on and gives anon one insert policy whose check is not `true`', async () => {
    const { rows: tables } = await db.query<{ rls: boolean }>(`select relrowsecurity as rls from pg_class where oid = 'public.waitlist'::regclass`)
    expect(tables[0]?.rls).toBe(true)
    const { rows: policies } = await db.query<{ cmd: string; roles: string[]; with_check: string | null; qual: string | null }>(
      `select cmd, roles::text[] as roles, with_check, qual from pg_policies where tablename = 'waitlist'`,
    )
    expect(policies).toHaveLength(1)
    expect(policies[0]).toMatchObject({ cmd: 'INSERT', roles: ['anon'], qual: null })
    expect(policies[0]?.with_check?.trim()).not.toMatch(/^\(?true\)?$/)
  })

  it('grants anon exactly INSERT on name, email, project, the source fields, the referral code it came through, the updates box, the language, the experiment variants and the answers', async () => {
    const { rows } = await db.query<{ privilege: string; column: string | null }>(
      `select privilege_type as privilege, null as column from information_schema.role_table_grants
        where table_name = 'waitlist' and grantee = 'anon'
       union all
       select privilege_type, column_name from information_schema.role_column_grants
        where table_name = 'waitlist' and grantee = 'anon'
       order by 2`,
    )
    expect(rows).toEqual([
      { privilege: 'INSERT', column: 'answers' },
      { privilege: 'INSERT', column: 'email' },
      { privilege: 'INSERT', column: 'experiments' },
      { privilege: 'INSERT', column: 'landing_path' },
      { privilege: 'INSERT', column: 'language' },
      { privilege: 'INSERT', column: 'name' },
      { privilege: 'INSERT', column: 'project' },
      { privilege: 'INSERT', column: 'ref' },
      { privilege: 'INSERT', column: 'referrer_host' },
      { privilege: 'INSERT', column: 'updates' },
      { privilege: 'INSERT', column: 'utm_campaign' },
      { privilege: 'INSERT', column: 'utm_medium' },
      { privilege: 'INSERT', column: 'utm_source' },
    ])
  })

  it('uses the e-mail pattern of components/waitlist/email.ts verbatim', async () => {
    const { rows } = await db.query<{ def: string }>(`select pg_get_constraintdef(oid) as def from pg_constraint where conname = 'waitlist_email_format'`)
    expect(rows[0]?.def).toBe('CHECK (waitlist_rules.email_plausible(email)) NOT VALID')
    const { rows: fn } = await db.query<{ def: string }>(`select pg_get_functiondef('waitlist_rules.email_plausible(text)'::regprocedure) as def`)
    expect(fn[0]?.def).toContain(`'${WAITLIST_EMAIL_PATTERN_SOURCE}'`)
  })

  it('takes as invisible the class of components/waitlist/rules.ts verbatim', async () => {
    const { rows } = await db.query<{ def: string }>(`select pg_get_functiondef('waitlist_rules.clean_text(text)'::regprocedure) as def`)
    expect(rows[0]?.def).toContain(`'[${WAITLIST_INVISIBLE_CLASS}]'`)
  })

  it('trims exactly the whitespace set of components/waitlist/rules.ts', async () => {
    const { rows } = await db.query<{ trimmed: string }>('select public.waitlist_trim($1) as trimmed', [`${WAITLIST_WHITESPACE}x\u200By${WAITLIST_WHITESPACE}`])
    // U+200B (zero width space) is not whitespace for JS' trim either.
    expect(rows[0]?.trimmed).toBe('x\u200By')
  })
})

describe('as anon', () => {
  it('can insert, and the stored values are trimmed with created_at and id filled in', async () => {
    expect(await insertAnon('  Ada Lovelace\u00A0', '\tada@example.com \n', ' Analytical Engine ', true)).toEqual({ ok: true, rows: [] })
    const { rows } = await db.query<{ name: string; email: string; project: string; id: string; created_at: Date }>(
      `select * from public.waitlist where email = 'ada@example.com'`,
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', project: 'Analytical Engine' })
    expect(rows[0]?.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(rows[0]?.created_at).toBeInstanceOf(Date)
  })

  it('gets project "" when the column is left out', async () => {
    expect(await runAs(db, 'anon', 'insert into public.waitlist (name, email) values ($1, $2)', ['Bo', 'bo@example.com'], { keep: true })).toMatchObject({
      ok: true,
    })
    const { rows } = await db.query<{ project: string }>(`select project from public.waitlist where email = 'bo@example.com'`)
    expect(rows[0]?.project).toBe('')
  })

  it.each([
    ['the same address', 'ada@example.com'],
    ['another case', 'ADA@Example.COM'],
    ['surrounding spaces', '  ada@example.com  '],
    ['surrounding unicode whitespace', '\u3000Ada@example.com\u2028'],
  ])('is refused a duplicate e-mail in %s (23505)', async (_, email) => {
    expect(await insertAnon('Someone', email)).toMatchObject({ ok: false, code: '23505', constraint: 'waitlist_email_unique' })
  })

  it.each([
    ['select', 'select * from public.waitlist'],
    ['select of one column', 'select email from public.waitlist'],
    ['count', 'select count(*) from public.waitlist'],
    ['update', `update public.waitlist set name = 'x'`],
    ['delete', 'delete from public.waitlist'],
    ['insert with read-back', `insert into public.waitlist (name, email) values ('Cy', 'cy@example.com') returning id`],
    ['insert of created_at', `insert into public.waitlist (name, email, created_at) values ('Cy', 'cy@example.com', '2000-01-01')`],
    ['insert of id', `insert into public.waitlist (id, name, email) values (gen_random_uuid(), 'Cy', 'cy@example.com')`],
    ['truncate', 'truncate public.waitlist'],
  ])('is refused %s (42501)', async (_, sql) => {
    expect(await runAs(db, 'anon', sql)).toMatchObject({ ok: false, code: '42501' })
  })

  const long = (n: number, unit = 'a') => unit.repeat(n)
  const emailOf = (n: number) => `${long(n - '@example.com'.length)}@example.com`

  it.each([
    ['blank name', '   ', 'x1@example.com', '', '23514', 'waitlist_name_not_blank'],
    ['empty name', '', 'x2@example.com', '', '23514', 'waitlist_name_not_blank'],
    ['whitespace-only name (no-break spaces)', '\u00A0\u2003', 'x3@example.com', '', '23514', 'waitlist_name_not_blank'],
    ['null name', null, 'x4@example.com', '', '23502', undefined],
    ['blank email', 'Ann', '  ', '', '23514', undefined],
    ['null email', 'Ann', null, '', '23502', undefined],
    ['null project', 'Ann', 'x5@example.com', null, '23502', undefined],
    ['101-character name', long(101), 'x6@example.com', '', '23514', 'waitlist_name_length'],
    ['101-emoji name', long(101, '😀'), 'x7@example.com', '', '23514', 'waitlist_name_length'],
    ['255-character email', 'Ann', emailOf(255), '', '23514', 'waitlist_email_length'],
    ['201-character project', 'Ann', 'x8@example.com', long(201), '23514', 'waitlist_project_length'],
    ['email without @', 'Ann', 'ann.example.com', '', '23514', 'waitlist_email_format'],
    ['email with two @', 'Ann', 'ann@x@example.com', '', '23514', 'waitlist_email_format'],
    ['email with a space', 'Ann', 'ann smith@example.com', '', '23514', 'waitlist_email_format'],
    ['email with a no-break space', 'Ann', 'ann\u00A0smith@example.com', '', '23514', 'waitlist_email_format'],
    ['email without a dot in the domain', 'Ann', 'ann@localhost', '', '23514', 'waitlist_email_format'],
    ['email with an empty domain label', 'Ann', 'ann@example..com', '', '23514', 'waitlist_email_format'],
    ['email with a trailing dot', 'Ann', 'ann@example.com.', '', '23514', 'waitlist_email_format'],
    ['email with an empty local part', 'Ann', '@example.com', '', '23514', 'waitlist_email_format'],
    ['email with a NUL byte', 'Ann', 'a\u0000n@example.com', '', '22021', undefined],
  ])('refuses a %s', async (_, name, email, project, code, constraint) => {
    const result = await insertAnon(name, email, project)
    expect(result).toMatchObject({ ok: false, code })
    if (constraint) expect(result).toMatchObject({ constraint })
  })

  it.each([
    ['100-character name', long(100), 'y1@example.com', ''],
    ['100-emoji name (100 code points, 200 UTF-16 units)', long(100, '😀'), 'y2@example.com', ''],
    ['254-character email', 'Ann', emailOf(254), ''],
    ['200-character project', 'Ann', 'y3@example.com', long(200)],
    ['plus address on a subdomain', 'Ann', 'ann+waitlist@mail.example.co.uk', ''],
    ['unicode address', 'Zoë', 'zoë@exämple.de', ''],
    ['a name padded beyond 100 by spaces (trimmed first)', `   ${long(100)}   `, 'y4@example.com', ''],
  ])('accepts a %s', async (_, name, email, project) => {
    expect(await insertAnon(name, email, project)).toEqual({ ok: true, rows: [] })
  })
})

describe('as service_role', () => {
  it('can read the list (it bypasses RLS)', async () => {
    const result = await runAs<{ email: string }>(db, 'service_role', 'select email from public.waitlist order by created_at')
    expect(result).toMatchObject({ ok: true })
    if (result.ok) expect(result.rows.map((row) => row.email)).toContain('ada@example.com')
  })

  it('can delete an entry (erasure requests)', async () => {
    expect(await runAs(db, 'service_role', `delete from public.waitlist where email = 'ada@example.com'`)).toMatchObject({ ok: true })
  })

  it('cannot update entries', async () => {
    expect(await runAs(db, 'service_role', `update public.waitlist set name = 'x'`)).toMatchObject({ ok: false, code: '42501' })
  })
})

describe('as authenticated', () => {
  it.each([
    ['insert', `insert into public.waitlist (name, email) values ('Di', 'di@example.com')`],
    ['select', 'select * from public.waitlist'],
  ])('is refused %s (42501)', async (_, sql) => {
    expect(await runAs(db, 'authenticated', sql)).toMatchObject({ ok: false, code: '42501' })
  })
})

describe('20261123120000_waitlist_trust on a database that already has sign-ups', () => {
  it('gives existing rows the one spelling, keeps the earliest of each address, and keeps old rows the new rule would refuse', async () => {
    const { all, old, done } = await databaseBefore('20261123120000')
    try {
      // What the old rules let in: look-alikes of one address, and a shape the new rule refuses.
      await old.query(
        `insert into public.waitlist (name, email, created_at) values
           ('First', 'ada@example.com', now() - interval '3 days'),
           ('Twin', 'a\u200Bda@example.com', now() - interval '2 days'),
           ('Wide', '\uFF41\uFF44\uFF41@example.com', now() - interval '1 day'),
           ('Idn', 'kontakt@Bücher.de', now()),
           ('Odd', '"quoted"@example.com', now())`,
      )
      expect(await applyMigrations(old)).toEqual(all.filter((migration) => migration.version >= '20261123120000').map((migration) => migration.version))
      const { rows } = await old.query<{ name: string; email: string }>('select name, email from public.waitlist order by created_at, name')
      expect(rows).toEqual([
        { name: 'First', email: 'ada@example.com' },
        { name: 'Idn', email: 'kontakt@xn--bcher-kva.de' },
        { name: 'Odd', email: '"quoted"@example.com' },
      ])
      // The old row stays; a new one like it is refused.
      expect(await runAs(old, 'anon', INSERT_WAITLIST, ['Odd 2', '"other"@example.com', ''])).toMatchObject({ ok: false, code: '23514' })
    } finally {
      await done()
    }
  })
})

describe('20261123160000_waitlist_confirmation on a database that already has sign-ups', () => {
  it('keeps existing entries as confirmed (single opt-in), queues no e-mail for them, and makes new ones pending', async () => {
    const { old, done } = await databaseBefore('20261123160000')
    try {
      await old.query(`insert into public.waitlist (name, email, created_at) values ('Early', 'early@example.com', now() - interval '30 days')`)
      await applyMigrations(old)
      expect((await old.query('select status, confirmed_at from public.waitlist')).rows).toEqual([{ status: 'confirmed', confirmed_at: null }])
      expect((await old.query('select * from public.waitlist_outbox')).rows).toEqual([])
      // The purge never deletes them.
      expect((await old.query<{ n: number }>('select public.waitlist_purge_pending() as n')).rows).toEqual([{ n: 0 }])
      await old.query(`insert into public.waitlist (name, email) values ('Late', 'late@example.com')`)
      expect((await old.query(`select status from public.waitlist where email = 'late@example.com'`)).rows).toEqual([{ status: 'pending' }])
    } finally {
      await done()
    }
  })
})

describe('20261130200000_waitlist_line_index on a database that already has a line', () => {
  it('keeps every place and the head as the ranking before it gave them (ties and single opt-in included), then goes on from there', async () => {
    const { old, done } = await databaseBefore('20261130200000')
    try {
      await old.exec(`
        insert into public.waitlist (name, email, status, confirmed_at, created_at, referral_credits)
        select 'P' || i, 'p' || i || '@line.test', 'confirmed',
               case when i % 9 = 0 then null else now() - make_interval(mins => 1000 - (i / 3) * 3) end,
               now() - make_interval(mins => 2000 - i), (i * 7) % 4
          from generate_series(1, 60) i;
        insert into public.waitlist (name, email) values ('Pending', 'pending@line.test');`)
      const placesSql = (sql: string) => old.query<{ id: string; place: number }>(sql).then((result) => result.rows)
      const headNow = async () => (await old.query<{ head: unknown }>('select public.waitlist_line_head(10) as head')).rows[0]!.head
      const places = await placesSql('select entry_id as id, place::int from private.waitlist_line() order by place')
      const head = await headNow()
      expect(places).toHaveLength(60)

      await applyMigrations(old)
      const placesAfter = () => placesSql(`select id, private.waitlist_place(id)::int as place from public.waitlist where status = 'confirmed' order by place`)
      expect(await placesAfter()).toEqual(places)
      expect(await headNow()).toEqual(head)
      // An invitation that expires puts its person back where they were; a new confirmation goes last.
      await old.exec(`select public.waitlist_invite_email('p40@line.test');
                      update private.waitlist_invitations set expires_at = now() - interval '1 second';
                      select public.waitlist_purge_pending();
                      update public.waitlist set status = 'confirmed', confirmed_at = now() where email = 'pending@line.test';`)
      const last = (await old.query<{ id: string }>(`select id from public.waitlist where email = 'pending@line.test'`)).rows[0]!.id
      expect(await placesAfter()).toEqual([...places, { id: last, place: 61 }])
      expect((await old.query(`select private.waitlist_line_total('line')::int as n`)).rows).toEqual([{ n: 61 }])
    } finally {
      await done()
    }
  })
})

/** A database with every migration before `version` applied, as a project that has not pulled it yet. */
async function databaseBefore(version: string) {
  const all = await listMigrations()
  const dir = await mkdtemp(path.join(tmpdir(), 'waitlist-migrations-'))
  for (const file of all.filter((migration) => migration.version < version)) {
    await copyFile(file.file, path.join(dir, path.basename(file.file)))
  }
  const old = await migratedPglite(dir)
  return {
    all,
    old,
    async done() {
      await old.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
