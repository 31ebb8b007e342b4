/**
 * `npm run db:check`: supabase/schemas/ must describe exactly the database supabase/migrations/
 * builds. Builds one database from each (on PGlite, and on Debian's PostgreSQL when it is
 * installed) and compares their catalogs (tools/db/catalog.ts); any difference fails, naming the
 * object and showing both sides. Then lints the migrations with squawk (tools/db/squawk.ts).
 *
 * Options: --migrations DIR, --schemas DIR (another tree, for the tests), --pglite-only.
 */
import pg from 'pg'
import { parseArgs } from 'node:util'
import { ensurePostgres, migrationTarget, startPostgresCluster } from '../local/postgres'
import { applyMigrations, MIGRATIONS_DIR, type MigrationTarget } from '../supabase-local/migrate'
import { describeDifference, diffCatalogs, readCatalog, type Catalog, type CatalogDifference } from './catalog'
import { applySchemas, SCHEMAS_DIR } from './schemas'
import { lintMigrations } from './squawk'
import { freshPglite } from '../supabase-local/migrated-pglite'

export interface Trees {
  migrationsDir: string
  schemasDir: string
}

type Build = (db: MigrationTarget) => Promise<unknown>

function builds({ migrationsDir, schemasDir }: Trees): [Build, Build] {
  return [fromMigrations(migrationsDir), fromSchemas(schemasDir)]
}

export async function pgliteCatalog(build: Build): Promise<Catalog> {
  const db = await freshPglite()
  try {
    await build(db)
    return await readCatalog(db)
  } finally {
    await db.close()
  }
}

export const fromMigrations =
  (dir: string): Build =>
  (db) =>
    applyMigrations(db, dir)
export const fromSchemas =
  (dir: string): Build =>
  (db) =>
    applySchemas(db, dir)

/** Both trees' catalogs on PGlite, compared. */
export async function compareOnPglite(trees: Trees): Promise<CatalogDifference[]> {
  const [migrations, schemas] = builds(trees)
  return diffCatalogs(await pgliteCatalog(migrations), await pgliteCatalog(schemas))
}

/** Both trees' catalogs on one throwaway PostgreSQL cluster (two databases), compared. */
export async function compareOnPostgres(bin: string, trees: Trees): Promise<CatalogDifference[]> {
  const cluster = await startPostgresCluster(bin, { maxConnections: 20 })
  try {
    const catalogs: Catalog[] = []
    for (const [index, build] of builds(trees).entries()) {
      const database = `build_${index}`
      const admin = new pg.Client({ host: '127.0.0.1', port: cluster.port, user: 'postgres', database: 'postgres' })
      await admin.connect()
      await admin.query(`create database ${database}`)
      await admin.end()
      const client = new pg.Client({ host: '127.0.0.1', port: cluster.port, user: 'postgres', database })
      await client.connect()
      try {
        await build(migrationTarget(client))
        catalogs.push(await readCatalog({ query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params)).rows as T[] }) }))
      } finally {
        await client.end()
      }
    }
    return diffCatalogs(catalogs[0] as Catalog, catalogs[1] as Catalog)
  } finally {
    await cluster.stop()
  }
}

function report(engine: string, differences: CatalogDifference[]): boolean {
  if (differences.length === 0) {
    console.log(`✔ ${engine}: supabase/schemas/ and supabase/migrations/ build the same database.`)
    return true
  }
  console.error(`✘ ${engine}: ${differences.length} difference(s) between the database the migrations build and the one the schemas build:\n`)
  for (const difference of differences) console.error(describeDifference(difference, 'migrations', 'schemas') + '\n')
  return false
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { migrations: { type: 'string' }, schemas: { type: 'string' }, 'pglite-only': { type: 'boolean', default: false } },
  })
  const trees: Trees = { migrationsDir: values.migrations ?? MIGRATIONS_DIR, schemasDir: values.schemas ?? SCHEMAS_DIR }
  let ok = report('PGlite', await compareOnPglite(trees))
  if (!values['pglite-only']) {
    const binaries = await ensurePostgres()
    if (binaries.ok) ok = report(`PostgreSQL (${binaries.bin})`, await compareOnPostgres(binaries.bin, trees)) && ok
    else console.info(`PostgreSQL skipped: ${binaries.reason}`)
  }
  ok = (await lintMigrations(trees.migrationsDir)) && ok
  if (!ok) {
    console.error(
      'A change to the database is a new migration in supabase/migrations/ plus the same change to the file in ' +
        'supabase/schemas/ that declares the object (docs/waitlist.md, "Changing the database").',
    )
    process.exit(1)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main()
