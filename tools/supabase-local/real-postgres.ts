/**
 * A throwaway PostgreSQL cluster (Debian's server binaries, tools/local/postgres.ts) with the
 * project's migrations, set up as a Supabase project's database: the API's non-superuser login
 * role (`authenticator`, which may become anon, authenticated or service_role) and Supabase's role
 * statement timeouts (./statement-timeouts.ts). Shared by the real-server tests
 * (tests/helpers/real-postgres.ts) and the scale bench (tools/bench/db/), which must see the same
 * database the tests do.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { migrationTarget, startPostgresCluster, type PostgresCluster } from '../local/postgres'
import { applyMigrations } from './migrate'
import type { RestDatabase, RestQueries } from './postgrest'
import { requestTimeoutParam, ROLE_STATEMENT_TIMEOUTS_SQL } from './statement-timeouts'

export interface RealPostgres {
  /** A pool of connections as `authenticator` (not a superuser), like PostgREST's. */
  api: pg.Pool
  /** The superuser, for setup and for looking behind the API. */
  owner: pg.Client
  version: string
  port: number
  close(): Promise<void>
}

export async function startApiPostgres(
  bin: string,
  { maxConnections = 300, migrationsDir, settings = [] }: { maxConnections?: number; migrationsDir?: string; settings?: string[] } = {},
): Promise<RealPostgres> {
  const cluster: PostgresCluster = await startPostgresCluster(bin, { maxConnections, settings })
  try {
    const owner = await connect(cluster.port, 'postgres')
    await applyMigrations(migrationTarget(owner), migrationsDir)
    await apiRoles(owner)
    return await apiDatabase(cluster.port, owner, 'postgres', Math.min(100, maxConnections - 20), () => cluster.stop())
  } catch (error) {
    await cluster.stop()
    throw error
  }
}

/** The template every suite's database is copied from (startApiTemplate, openApiDatabase). */
const TEMPLATE = 'waitlist_template'

/**
 * One cluster for many suites: the migrations applied once to a template database, the API's
 * roles made once (roles belong to the cluster). Each suite then takes its own copy
 * (openApiDatabase): a copy costs a fraction of initdb, a start and the migrations.
 */
export async function startApiTemplate(bin: string, { maxConnections = 400 }: { maxConnections?: number } = {}): Promise<PostgresCluster> {
  const cluster = await startPostgresCluster(bin, { maxConnections })
  try {
    const admin = await connect(cluster.port, 'postgres')
    await admin.query(`create database ${TEMPLATE}`)
    await admin.end()
    const owner = await connect(cluster.port, TEMPLATE)
    await applyMigrations(migrationTarget(owner))
    await apiRoles(owner)
    await owner.end()
    return cluster
  } catch (error) {
    await cluster.stop()
    throw error
  }
}

/**
 * A database of its own, copied from the template of the cluster on `port`. Closing it ends its
 * connections and leaves the copy to the cluster's own end: dropping it at once would cut a
 * connection the pool is still closing (57P01 on a client nobody listens to any more).
 */
export async function openApiDatabase(port: number, { maxConnections = 80 }: { maxConnections?: number } = {}): Promise<RealPostgres> {
  const name = `suite_${randomUUID().replaceAll('-', '')}`
  const admin = await connect(port, 'postgres')
  try {
    await admin.query(`create database ${name} template ${TEMPLATE}`)
  } finally {
    await admin.end()
  }
  const owner = await connect(port, name)
  return apiDatabase(port, owner, name, Math.min(100, maxConnections), async () => {})
}

async function connect(port: number, database: string): Promise<pg.Client> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database })
  await client.connect()
  return client
}

/** Supabase's API login (no rights of its own, may become anon, authenticated or service_role) and the roles' timeouts. */
async function apiRoles(owner: pg.Client): Promise<void> {
  await owner.query(`create role authenticator login noinherit nosuperuser nocreatedb nocreaterole;
                     grant anon, authenticated, service_role to authenticator;`)
  await owner.query(ROLE_STATEMENT_TIMEOUTS_SQL)
}

async function apiDatabase(port: number, owner: pg.Client, database: string, connections: number, release: () => Promise<void>): Promise<RealPostgres> {
  const { rows } = await owner.query<{ version: string }>(`select current_setting('server_version') as version`)
  const api = new pg.Pool({ host: '127.0.0.1', port, user: 'authenticator', database, max: connections })
  return {
    api,
    owner,
    port,
    version: rows[0]?.version ?? '?',
    async close() {
      await api.end()
      await owner.end()
      await release()
    },
  }
}

export type ApiOutcome = { ok: true } | { ok: false; code: string; message: string; detail?: string }
export type ApiAnswer<T> = { ok: true; rows: T[] } | Exclude<ApiOutcome, { ok: true }>

/** One request as PostgREST runs it (apiRequest), its rows left out. */
export async function asApiRequest(pool: pg.Pool, headers: Record<string, string>, sql: string, params: unknown[] = [], role = 'anon'): Promise<ApiOutcome> {
  const answer = await apiRequest(pool, headers, sql, params, role)
  return answer.ok ? { ok: true } : answer
}

/**
 * One request as PostgREST runs it: a transaction on an authenticator connection, the role, its
 * statement timeout and the request settings local to it, commit on success.
 */
export async function apiRequest<T = Record<string, unknown>>(
  pool: pg.Pool,
  headers: Record<string, string>,
  sql: string,
  params: unknown[] = [],
  role = 'anon',
): Promise<ApiAnswer<T>> {
  const client = await pool.connect()
  try {
    await client.query('begin')
    await client.query(
      `select set_config('role', $1, true), set_config('request.headers', $2, true), set_config('request.jwt.claims', $3, true), set_config('statement_timeout', $4, true)`,
      [role, JSON.stringify(headers), JSON.stringify({ role }), requestTimeoutParam(role)],
    )
    const { rows } = await client.query(sql, params)
    await client.query('commit')
    return { ok: true, rows: rows as T[] }
  } catch (error) {
    await client.query('rollback').catch(() => {})
    const failure = error as { code?: string; message?: string; detail?: string }
    if (typeof failure.code !== 'string') throw error
    return { ok: false, code: failure.code, message: failure.message ?? '', ...(failure.detail ? { detail: failure.detail } : {}) }
  } finally {
    client.release()
  }
}

/**
 * A `pg` Pool as what the REST stand-in (./postgrest.ts) and the database tests need: a statement
 * on any connection, or a transaction on one connection, rolled back when the work throws.
 */
export function poolDatabase(pool: pg.Pool): RestDatabase {
  const queries = (client: pg.Pool | pg.PoolClient) => ({
    query: async <T = Record<string, unknown>>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params)).rows as T[] }),
  })
  return {
    ...queries(pool),
    async transaction<T>(work: (tx: RestQueries) => Promise<T>): Promise<T> {
      const client = await pool.connect()
      try {
        await client.query('begin')
        const result = await work(queries(client))
        await client.query('commit')
        return result
      } catch (error) {
        await client.query('rollback').catch(() => {})
        throw error
      } finally {
        client.release()
      }
    },
  }
}
