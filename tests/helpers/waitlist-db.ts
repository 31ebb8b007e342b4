/**
 * One in-memory PGlite with the project's migrations applied, and a way to
 * run SQL as an API role (anon, service_role...) like PostgREST does:
 * `set_config('role', ..., true)` inside a transaction.
 */
import { PGlite } from '@electric-sql/pglite'
import { applyMigrations } from '@/supabase/local/migrate'

export async function createWaitlistDb(): Promise<PGlite> {
  const db = await PGlite.create()
  await applyMigrations(db)
  return db
}

export type Attempt<Row> =
  | { ok: true; rows: Row[] }
  | { ok: false; code: string; message: string; constraint?: string }

const ROLLBACK = Symbol('rollback')

/**
 * Runs one statement as `role`. With `keep: false` (the default) the
 * transaction is rolled back even on success, so cases stay independent.
 */
export async function runAs<Row = Record<string, unknown>>(
  db: PGlite,
  role: string,
  sql: string,
  params: unknown[] = [],
  { keep = false }: { keep?: boolean } = {},
): Promise<Attempt<Row>> {
  let result: Attempt<Row> | undefined
  try {
    await db.transaction(async (tx) => {
      await tx.query(`select set_config('role', $1, true)`, [role])
      const { rows } = await tx.query<Row>(sql, params)
      result = { ok: true, rows }
      if (!keep) throw ROLLBACK
    })
  } catch (error) {
    if (error === ROLLBACK && result) return result
    const pg = error as { code?: string; message?: string; constraint?: string }
    if (typeof pg.code !== 'string') throw error
    return { ok: false, code: pg.code, message: pg.message ?? '', ...(pg.constraint ? { constraint: pg.constraint } : {}) }
  }
  return result as Attempt<Row>
}

export const INSERT_WAITLIST = 'insert into public.waitlist (name, email, project) values ($1, $2, $3)'
