/**
 * The migrated PGlite snapshot (tools/supabase-local/migrated-pglite.ts): a changed, added or
 * renamed migration names a new snapshot, so no suite ever loads a database older than its
 * migrations; and a database loaded from it has every migration recorded and is its own copy.
 */
import { cp, mkdtemp, readdir, rename, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { listMigrations, MIGRATIONS_DIR } from '@/tools/supabase-local/migrate'
import { migratedPglite, snapshotKey } from '@/tools/supabase-local/migrated-pglite'

describe('the migrated PGlite snapshot', () => {
  it('is named by every migration: a changed, added or renamed one names another', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'migrated-pglite-'))
    await cp(MIGRATIONS_DIR, dir, { recursive: true })
    const keys = [await snapshotKey(dir)]
    expect(await snapshotKey(dir)).toBe(keys[0])
    const [last] = (await readdir(dir)).sort().slice(-1)
    await writeFile(path.join(dir, last!), '\n-- one more line\n', { flag: 'a' })
    keys.push(await snapshotKey(dir))
    await writeFile(path.join(dir, '29991231235959_later.sql'), 'select 1;\n')
    keys.push(await snapshotKey(dir))
    await rename(path.join(dir, '29991231235959_later.sql'), path.join(dir, '29991231235959_renamed.sql'))
    keys.push(await snapshotKey(dir))
    expect(new Set(keys).size).toBe(4)
  })

  it('loads a database with every migration recorded, each load its own', { timeout: 60_000 }, async () => {
    const [first, second] = [await migratedPglite(), await migratedPglite()]
    try {
      const versions = (await first.query<{ version: string }>('select version from supabase_migrations.schema_migrations order by version')).rows
      expect(versions.map((row) => row.version)).toEqual((await listMigrations()).map((migration) => migration.version))
      await first.exec(`insert into private.waitlist_languages (code) values ('fr')`)
      expect((await second.query(`select code from private.waitlist_languages where code = 'fr'`)).rows).toEqual([])
    } finally {
      await Promise.all([first.close(), second.close()])
    }
  })
})
