/**
 * A database with the project's migrations applied (an in-memory PGlite, or a throwaway real
 * PostgreSQL server when one can be had), and a way to run SQL as an API role (anon,
 * service_role...) like PostgREST does: `set_config('role', ..., true)` inside a transaction, under the
 * role's statement timeout as on Supabase (tools/supabase-local/statement-timeouts.ts).
 */
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, inject } from 'vitest'
import { migratedPglite } from '@/tools/supabase-local/migrated-pglite'
import { requestTimeoutParam, ROLE_STATEMENT_TIMEOUTS_SQL, withinStatementTimeout } from '@/tools/supabase-local/statement-timeouts'
import { poolDatabase } from '@/tools/supabase-local/real-postgres'
import { startRealPostgres } from './real-postgres'

/** What the database tests use: PGlite has it; a real server gets an adapter. */
export interface WaitlistDb {
  /** As the owner (a superuser): setup, and looking behind the API. */
  exec(sql: string): Promise<unknown>
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>
  /** A transaction on a connection API requests use (on a real server: the non-superuser authenticator). */
  transaction<T>(work: (tx: { query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[] }> }) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/**
 * Webhook events off: the suites that count the outbox's e-mails and Slack messages would
 * otherwise see a webhook message beside each fact. tests/integration/waitlist-webhooks.test.ts
 * turns them on (the projects' default) with `webhooks(db, true)`.
 */
/**
 * An empty list whose own-data and link limits no test of many sign-ups reaches, and the given
 * private tables (the published set a test replaces) emptied too.
 */
export const emptyList = (db: Pick<WaitlistDb, 'exec'>, ...tables: string[]) =>
  db.exec(`
    update private.waitlist_confirmation_settings set confirm_per_client = 1000, link_requests_per_client = 1000;
    update private.waitlist_referral_settings set own_data_per_client = 1000;
    delete from public.waitlist;
    delete from public.waitlist_outbox;
    delete from private.waitlist_api_attempts;
    delete from private.waitlist_recent_signups;
    ${tables.map((table) => `delete from ${table};`).join('\n')}
  `)

export const webhooks = (db: Pick<WaitlistDb, 'exec'>, enabled: boolean) => db.exec(`update private.waitlist_webhook_settings set enabled = ${enabled}`)

export async function createWaitlistDb(): Promise<PGlite> {
  const db = await migratedPglite()
  await db.exec(ROLE_STATEMENT_TIMEOUTS_SQL)
  await webhooks(db, false)
  return db
}

async function createRealWaitlistDb(): Promise<WaitlistDb> {
  const start = await startRealPostgres({ maxConnections: 50 })
  if (!start.ok) throw new Error(start.reason)
  const { owner, api, close } = start.postgres
  await webhooks({ exec: (sql) => owner.query(sql) }, false)
  return {
    exec: (sql) => owner.query(sql),
    query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await owner.query(sql, params)).rows as T[] }),
    transaction: poolDatabase(api).transaction,
    close,
  }
}

export interface WaitlistDbTarget {
  name: string
  start(): Promise<WaitlistDb>
}

/**
 * The databases a suite runs on: PGlite always; Debian's PostgreSQL when it is installed or can
 * be (root, apt-get), else skipped with a printed reason. Call at the top of a test file.
 */
/** Runs `suite` once per database, handing each opened database to `use` before its tests. */
export function onEachDatabase(targets: readonly WaitlistDbTarget[], use: (db: WaitlistDb, target: string) => void, suite: () => void): void {
  for (const target of targets) {
    describe(`on ${target.name}`, () => {
      let db: WaitlistDb | undefined
      beforeAll(async () => {
        db = await target.start()
        use(db, target.name)
      })
      afterAll(async () => {
        await db?.close()
      })
      suite()
    })
  }
}

export async function waitlistDbTargets(suite: string): Promise<WaitlistDbTarget[]> {
  const targets: WaitlistDbTarget[] = [{ name: 'PGlite', start: createWaitlistDb }]
  const binaries = inject('postgres')
  if (binaries.ok) targets.push({ name: 'PostgreSQL', start: createRealWaitlistDb })
  else console.info(`[${suite}] real PostgreSQL skipped: ${binaries.reason}`)
  return targets
}

export type Attempt<Row> = { ok: true; rows: Row[] } | { ok: false; code: string; message: string; constraint?: string; detail?: string }

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
  db: Pick<WaitlistDb, 'transaction'>,
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
      await tx.query(`select set_config('role', $1, true), set_config('statement_timeout', $2, true)`, [role, requestTimeoutParam(role)])
      const { rows } = await withinStatementTimeout(role, () => tx.query<Row>(sql, params))
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

/**
 * Empties the list and its queues, and lifts every per-client and hourly limit, for suites that
 * test the mail, not the limits (those are proven in waitlist-abuse and waitlist-confirmation).
 */
export async function resetForMailTests(db: WaitlistDb): Promise<void> {
  await db.exec(`
    delete from public.waitlist;
    delete from public.waitlist_outbox;
    delete from private.waitlist_broadcasts;
    delete from private.waitlist_api_attempts;
    delete from private.waitlist_recent_signups;
    delete from private.waitlist_mail_log;
    update private.waitlist_confirmation_settings set confirm_per_client = 1000, link_requests_per_client = 1000, link_request_interval_seconds = 0;
    update private.waitlist_referral_settings set own_data_per_client = 1000;
    update private.waitlist_mail_caps set emails_per_hour = 100000, unproven_per_recipient = 3;
  `)
}
