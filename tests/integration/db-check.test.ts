/**
 * `npm run db:check` holds supabase/schemas/ and supabase/migrations/ to one database: the tree as
 * committed passes, and one change made on only one side (a copy in a temporary folder) fails,
 * naming the object that differs. On PGlite; the command also runs the comparison on PostgreSQL.
 */
import { execFile } from 'node:child_process'
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { diffCatalogs, type Catalog } from '@/tools/db/catalog'
import { fromMigrations, fromSchemas, pgliteCatalog } from '@/tools/db/check'
import { SCHEMAS_DIR } from '@/tools/db/schemas'
import { lintMigrations } from '@/tools/db/squawk'
import { generateDatabaseTypes } from '@/tools/db/typegen'
import { MIGRATIONS_DIR } from '@/tools/supabase-local/migrate'

const exec = promisify(execFile)

let work: string
let migrationsCatalog: Catalog
let schemasCatalog: Catalog

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'db-check-'))
  ;[migrationsCatalog, schemasCatalog] = await Promise.all([pgliteCatalog(fromMigrations(MIGRATIONS_DIR)), pgliteCatalog(fromSchemas(SCHEMAS_DIR))])
}, 60_000)

afterAll(async () => {
  await rm(work, { recursive: true, force: true })
})

let copies = 0
/** A copy of one tree with one change; returns its folder. */
async function copyWith(tree: 'migrations' | 'schemas', change: (dir: string) => Promise<void>): Promise<string> {
  const dir = path.join(work, `${tree}-${++copies}`)
  await cp(tree === 'migrations' ? MIGRATIONS_DIR : SCHEMAS_DIR, dir, { recursive: true })
  await change(dir)
  return dir
}

async function edit(file: string, from: string | RegExp, to: string): Promise<void> {
  const text = await readFile(file, 'utf8')
  const changed = text.replace(from, to)
  if (changed === text) throw new Error(`${path.basename(file)}: nothing to replace for ${String(from)}`)
  await writeFile(file, changed)
}

/** A migration after every existing one, as a developer adds it. */
const addMigration = (sql: string) => (dir: string) => writeFile(path.join(dir, '29991231000000_one_sided_change.sql'), sql)

const differingObjects = (left: Catalog, right: Catalog) => diffCatalogs(left, right).map((difference) => difference.object)

// That the tree as committed passes is npm test's own step (tools/db/check.ts: the catalogs, squawk)
// and the typegen's (tools/db/typegen.ts --check); this file shows that each check can fail.
it('builds both catalogs in full: the base every change below is compared with', () => {
  expect(migrationsCatalog.size).toBeGreaterThan(300)
  expect(schemasCatalog.size).toBe(migrationsCatalog.size)
})

describe('a change made in supabase/schemas/ only fails, naming the object', () => {
  const cases: [string, (dir: string) => Promise<void>, string][] = [
    [
      'a function body',
      (dir) => edit(path.join(dir, '04_tokens.sql'), "return 'invalid';", "return 'unknown';"),
      'function public.waitlist_confirm(token text)',
    ],
    ['a column', (dir) => edit(path.join(dir, '02_waitlist.sql'), '  ref text,', '  ref text not null,'), 'column public.waitlist.ref'],
    [
      'a policy',
      (dir) => edit(path.join(dir, '02_waitlist.sql'), "interval '1 minute');", "interval '1 hour');"),
      'policy public.waitlist.waitlist_anon_insert',
    ],
    [
      'a grant',
      (dir) => appendFile(path.join(dir, '02_waitlist.sql'), '\ngrant select (name) on table public.waitlist to anon;\n'),
      'column public.waitlist.name',
    ],
    [
      'a settings row',
      (dir) => appendFile(path.join(dir, '10_settings.sql'), '\nupdate private.waitlist_limits set per_client = 51;\n'),
      'rows private.waitlist_limits',
    ],
  ]
  for (const [what, change, object] of cases) {
    it(what, async () => {
      const dir = await copyWith('schemas', change)
      expect(differingObjects(migrationsCatalog, await pgliteCatalog(fromSchemas(dir)))).toEqual([object])
    })
  }
})

describe('a change made in a new migration only fails, naming the object', () => {
  const cases: [string, string, string][] = [
    [
      'a function body',
      `create or replace function public.waitlist_trim(value text) returns text language sql immutable strict parallel safe
         set search_path = '' return pg_catalog.btrim(value);`,
      'function public.waitlist_trim(value text)',
    ],
    ['a column', `alter table public.waitlist add column nickname text;`, 'column public.waitlist.nickname'],
    [
      'a policy',
      `alter policy waitlist_anon_insert on public.waitlist with check (created_at >= now() - interval '1 hour');`,
      'policy public.waitlist.waitlist_anon_insert',
    ],
    ['a grant', `grant select on table public.waitlist_outbox to anon;`, 'table public.waitlist_outbox'],
  ]
  for (const [what, sql, object] of cases) {
    it(what, async () => {
      const dir = await copyWith('migrations', addMigration(sql))
      expect(differingObjects(await pgliteCatalog(fromMigrations(dir)), schemasCatalog)).toEqual([object])
    })
  }
})

it('the command exits 1 and shows both sides of the object', async () => {
  const schemas = await copyWith('schemas', (dir) => edit(path.join(dir, '04_tokens.sql'), "return 'invalid';", "return 'unknown';"))
  const failure = await exec('tsx', ['tools/db/check.ts', '--pglite-only', '--schemas', schemas]).then(
    () => null,
    (error: { code: number; stderr: string }) => error,
  )
  expect(failure?.code).toBe(1)
  expect(failure?.stderr).toContain('✘ function public.waitlist_confirm(token text)')
  expect(failure?.stderr).toMatch(/migrations:\n(.*\n)*?\s+\| .*return 'invalid';/)
  expect(failure?.stderr).toMatch(/schemas:\n(.*\n)*?\s+\| .*return 'unknown';/)
}, 60_000)

describe('squawk lints every migration', () => {
  it('fails a new migration that breaks a rule left on (prefer-text-field: varchar)', async () => {
    const dir = await copyWith('migrations', addMigration('alter table public.waitlist add column nickname varchar(20);\n'))
    expect(await lintMigrations(dir)).toBe(false)
  }, 60_000)
})

describe('supabase/types.generated.ts', () => {
  it('follows the schemas: a renamed argument changes the Database type', async () => {
    const dir = await copyWith('schemas', (schemas) =>
      edit(path.join(schemas, '09_updates.sql'), /public\.waitlist_unsubscribe\(token text\)/g, 'public.waitlist_unsubscribe(link_token text)'),
    )
    const types = await generateDatabaseTypes(dir).catch((error: unknown) => String(error))
    expect(types).toMatch(/waitlist_unsubscribe: \{ Args: \{ link_token: string \}/)
  }, 60_000)
})
