/**
 * A throwaway PostgreSQL cluster (Debian's server binaries) with the project's migrations, for the
 * tests that need what PGlite, a single connection, cannot show: concurrent clients, lock waits,
 * deadlocks. initdb refuses root, so as root the cluster runs as the `postgres` OS user the Debian
 * package creates. Requests run like PostgREST's: a non-superuser login role (`authenticator`, as
 * on Supabase) that switches to anon per transaction and sets request.headers and
 * request.jwt.claims, under Supabase's statement timeouts (tools/supabase-local/statement-timeouts.ts).
 */
import pg from 'pg'
import { inject } from 'vitest'
import { migrationTarget, startPostgresCluster, type PostgresCluster } from '@/tools/local/postgres'
import { applyMigrations } from '@/tools/supabase-local/migrate'
import { requestTimeoutParam, ROLE_STATEMENT_TIMEOUTS_SQL } from '@/tools/supabase-local/statement-timeouts'

export interface RealPostgres {
  /** A pool of connections as `authenticator` (not a superuser), like PostgREST's. */
  api: pg.Pool
  /** The superuser, for setup and for looking behind the API. */
  owner: pg.Client
  version: string
  close(): Promise<void>
}

export type RealPostgresStart = { ok: true; postgres: RealPostgres } | { ok: false; reason: string }

export async function startRealPostgres({ maxConnections = 300, migrationsDir }: { maxConnections?: number; migrationsDir?: string } = {}): Promise<RealPostgresStart> {
  // Found or installed once by tests/helpers/postgres-setup.ts (Vitest's global setup).
  const binaries = inject('postgres')
  if (!binaries.ok) return binaries

  let cluster: PostgresCluster
  try {
    cluster = await startPostgresCluster(binaries.bin, { maxConnections })
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
  const { port } = cluster
  const stop = () => cluster.stop()
  try {
    const owner = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' })
    await owner.connect()
    await applyMigrations(migrationTarget(owner), migrationsDir)
    // Supabase's API login: no rights of its own, may become anon, authenticated or service_role.
    await owner.query(`create role authenticator login noinherit nosuperuser nocreatedb nocreaterole;
                       grant anon, authenticated, service_role to authenticator;`)
    await owner.query(ROLE_STATEMENT_TIMEOUTS_SQL)
    const { rows } = await owner.query<{ version: string }>('show server_version')
    const api = new pg.Pool({ host: '127.0.0.1', port, user: 'authenticator', database: 'postgres', max: Math.min(100, maxConnections - 20) })
    return {
      ok: true,
      postgres: {
        api,
        owner,
        version: rows[0]?.version ?? '?',
        async close() {
          await api.end()
          await owner.end()
          await stop()
        },
      },
    }
  } catch (error) {
    await stop()
    throw error
  }
}

export type ApiOutcome = { ok: true } | { ok: false; code: string; message: string; detail?: string }

/**
 * One request as PostgREST runs it: a transaction on an authenticator connection, the role, its
 * statement timeout and the request settings local to it, commit on success.
 */
export async function asApiRequest(pool: pg.Pool, headers: Record<string, string>, sql: string, params: unknown[] = [], role = 'anon'): Promise<ApiOutcome> {
  const client = await pool.connect()
  try {
    await client.query('begin')
    await client.query(
      `select set_config('role', $1, true), set_config('request.headers', $2, true), set_config('request.jwt.claims', $3, true), set_config('statement_timeout', $4, true)`,
      [role, JSON.stringify(headers), JSON.stringify({ role }), requestTimeoutParam(role)],
    )
    await client.query(sql, params)
    await client.query('commit')
    return { ok: true }
  } catch (error) {
    await client.query('rollback').catch(() => {})
    const failure = error as { code?: string; message?: string; detail?: string }
    if (typeof failure.code !== 'string') throw error
    return { ok: false, code: failure.code, message: failure.message ?? '', ...(failure.detail ? { detail: failure.detail } : {}) }
  } finally {
    client.release()
  }
}
