/**
 * An in-memory PGlite with every migration applied (or none), started from a snapshot of its data
 * folder made once per set of migrations. Creating a PGlite runs initdb inside WebAssembly, several
 * seconds on this machine, and the test suites and the end-to-end stack each start one again and
 * again; loading the migrated folder takes a fraction of that. The snapshot is keyed by the
 * migrations' names and contents and the PGlite version, so a changed migration makes a new one:
 * what is loaded is a byte copy of the data folder applyMigrations built
 * (tests/unit/migrated-pglite.test.ts).
 *
 * Kept in .local/cache/pglite/ (git-ignored), written under a temporary name and renamed, so two
 * processes making it at once never read half a file.
 */
import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { applyMigrations, listMigrations, MIGRATIONS_DIR } from './migrate'

const CACHE_DIR = fileURLToPath(new URL('../../.local/cache/pglite/', import.meta.url))
// Its package exports no package.json; the file is where npm installed it.
const PGLITE_PACKAGE = fileURLToPath(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url))

/** Names the snapshot: the PGlite version and every migration's version, name and bytes (none: a fresh cluster). */
export async function snapshotKey(dir: string | null): Promise<string> {
  const hash = createHash('sha256')
  const { version } = JSON.parse(await readFile(PGLITE_PACKAGE, 'utf8')) as { version: string }
  hash.update(`pglite ${version}\n`)
  for (const migration of dir === null ? [] : await listMigrations(dir))
    hash.update(`${migration.version} ${migration.name}\n`).update(await readFile(migration.file))
  return hash.digest('hex').slice(0, 32)
}

/** The snapshot of a database with `dir`'s migrations (null: none), made now if there is none yet. */
async function snapshot(dir: string | null): Promise<Uint8Array<ArrayBuffer>> {
  const file = path.join(CACHE_DIR, `${await snapshotKey(dir)}.tar`)
  const made = await readFile(file).catch(() => null)
  if (made) return new Uint8Array(made)
  const db = await PGlite.create()
  try {
    if (dir !== null) await applyMigrations(db, dir)
    const dump = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer())
    await mkdir(CACHE_DIR, { recursive: true })
    const partial = `${file}.${randomUUID()}.partial`
    await writeFile(partial, dump)
    await rename(partial, file)
    return dump
  } finally {
    await db.close()
  }
}

/** A fresh in-memory database with `dir`'s migrations applied (nothing it does reaches the snapshot). */
export async function migratedPglite(dir = MIGRATIONS_DIR): Promise<PGlite> {
  const db = await PGlite.create({ loadDataDir: new Blob([await snapshot(dir)]) })
  // A migration added since cannot be missing (the key names every one), but the check is one query.
  await applyMigrations(db, dir)
  return db
}

/** A fresh in-memory database as PGlite.create() makes it, without its initdb: for building other trees (tools/db/check.ts). */
export async function freshPglite(): Promise<PGlite> {
  return PGlite.create({ loadDataDir: new Blob([await snapshot(null)]) })
}
