/**
 * Hosted Supabase's statement timeouts, per API role (/work/shared/notes/stack.md, "Checked
 * 2026-11-27"; Supabase docs, "Timeouts"): anon 3 s, authenticated 8 s, service_role none of its
 * own, so the API's login role's (authenticator, 8 s). They are settings of the platform, not of
 * our migrations: the local stand-in (server.ts, postgrest.ts) and the test helpers
 * (tests/helpers/waitlist-db.ts, real-postgres.ts) apply them where they create or become the
 * roles, so a call that would time out in production fails locally too.
 */

/** The timeout of each role as Supabase stores it (`alter role … set statement_timeout`). */
export const ROLE_STATEMENT_TIMEOUT_SECONDS = { anon: 3, authenticated: 8, authenticator: 8 } as const

/** The timeout a request as `role` runs under: its own, else the API connection's (authenticator's). */
function statementTimeoutSeconds(role: string): number {
  const own = ROLE_STATEMENT_TIMEOUT_SECONDS[role as keyof typeof ROLE_STATEMENT_TIMEOUT_SECONDS] as number | undefined
  return own ?? ROLE_STATEMENT_TIMEOUT_SECONDS.authenticator
}

/** The roles' stored settings, as on a Supabase project (only for roles that exist). */
export const ROLE_STATEMENT_TIMEOUTS_SQL = `do $$
declare
  r record;
begin
  for r in select * from (values ${Object.entries(ROLE_STATEMENT_TIMEOUT_SECONDS)
    .map(([role, seconds]) => `('${role}', '${seconds}s')`)
    .join(', ')}) t (role, timeout)
  loop
    if exists (select 1 from pg_catalog.pg_roles where rolname = r.role) then
      execute pg_catalog.format('alter role %I set statement_timeout = %L', r.role, r.timeout);
    end if;
  end loop;
end
$$;`

/**
 * What PostgREST does for each request's role (its "impersonated role settings"): the role's
 * timeout, set local to the request's transaction (`set_config('statement_timeout', …, true)`).
 */
export const requestTimeoutParam = (role: string) => `${statementTimeoutSeconds(role)}s`

/** SQLSTATE 57014, as PostgreSQL reports a statement cut by statement_timeout. */
export class StatementTimeoutError extends Error {
  readonly code = '57014'
  readonly severity = 'ERROR'
  constructor() {
    super('canceling statement due to statement timeout')
  }
}

/**
 * PGlite cannot cut a statement short (WebAssembly has no timer signal: statement_timeout is
 * ignored there), so past the role's timeout the request fails afterwards, with PostgreSQL's own
 * error, before it commits: the same outcome as production, only later. A real server has
 * already cancelled it by then.
 */
export async function withinStatementTimeout<T>(role: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now()
  const result = await work()
  if (performance.now() - started > statementTimeoutSeconds(role) * 1000) throw new StatementTimeoutError()
  return result
}
