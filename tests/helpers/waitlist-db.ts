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
  | { ok: false; code: string; message: string; constraint?: string; detail?: string }

export interface RunOptions {
  /** Commit instead of rolling back. */
  keep?: boolean
  /**
   * Present the statement as an API request, as PostgREST does: request.headers (lower-cased
   * names) and request.jwt.claims with the role. Without it the statement looks like the
   * owner's own SQL, which no request-based rule (the sign-up rate limit) applies to.
   */
  request?: { headers: Record<string, string>; claims?: Record<string, unknown> }
}

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
  { keep = false, request }: RunOptions = {},
): Promise<Attempt<Row>> {
  let result: Attempt<Row> | undefined
  try {
    await db.transaction(async (tx) => {
      if (request) {
        await tx.query(`select set_config('request.headers', $1, true), set_config('request.jwt.claims', $2, true)`, [
          JSON.stringify(request.headers),
          JSON.stringify({ role, ...request.claims }),
        ])
      }
      await tx.query(`select set_config('role', $1, true)`, [role])
      const { rows } = await tx.query<Row>(sql, params)
      result = { ok: true, rows }
      if (!keep) throw ROLLBACK
    })
  } catch (error) {
    if (error === ROLLBACK && result) return result
    const pg = error as { code?: string; message?: string; constraint?: string; detail?: string }
    if (typeof pg.code !== 'string') throw error
    return {
      ok: false,
      code: pg.code,
      message: pg.message ?? '',
      ...(pg.constraint ? { constraint: pg.constraint } : {}),
      ...(pg.detail ? { detail: pg.detail } : {}),
    }
  }
  return result as Attempt<Row>
}

export const INSERT_WAITLIST = 'insert into public.waitlist (name, email, project) values ($1, $2, $3)'
