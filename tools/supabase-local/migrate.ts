/**
 * Applies supabase/migrations/<version>_<name>.sql to a database (PGlite, or a real Postgres
 * through an adapter with the same three calls) in version order, each in its own transaction, recording applied versions in
 * supabase_migrations.schema_migrations: the table the Supabase CLI uses, so
 * a restart on the same data folder skips what is already there.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** What applying migrations needs of a database: PGlite has it, a `pg` client gets a small adapter. */
export interface MigrationTarget {
  exec(sql: string): Promise<unknown>
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>
  transaction<T>(work: (tx: Pick<MigrationTarget, 'exec' | 'query'>) => Promise<T>): Promise<T>
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../supabase/migrations/', import.meta.url))

const FILE_PATTERN = /^(\d{14})_([a-z0-9_]+)\.sql$/

export interface MigrationFile {
  version: string
  name: string
  file: string
}

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const entries = await readdir(dir)
  const migrations: MigrationFile[] = []
  for (const entry of entries) {
    if (!entry.endsWith('.sql')) continue
    const match = FILE_PATTERN.exec(entry)
    // The CLI would skip such a file silently; failing loudly is kinder to whoever named it.
    if (!match) throw new Error(`Migration file name must be <14-digit version>_<name>.sql: ${entry}`)
    migrations.push({ version: match[1] as string, name: match[2] as string, file: path.join(dir, entry) })
  }
  return migrations.sort((a, b) => a.version.localeCompare(b.version))
}

/** Returns the versions applied by this call (empty when already up to date). */
export async function applyMigrations(db: MigrationTarget, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key,
      statements text[],
      name text
    );
  `)
  const done = new Set((await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map((row) => row.version))
  const applied: string[] = []
  for (const migration of await listMigrations(dir)) {
    if (done.has(migration.version)) continue
    const sql = await readFile(migration.file, 'utf8')
    await db.transaction(async (tx) => {
      try {
        await tx.exec(sql)
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        throw new Error(`Migration ${path.basename(migration.file)} failed: ${reason}`, { cause: error })
      }
      await tx.query('insert into supabase_migrations.schema_migrations (version, statements, name) values ($1, $2, $3)', [
        migration.version,
        [sql],
        migration.name,
      ])
    })
    applied.push(migration.version)
  }
  return applied
}
