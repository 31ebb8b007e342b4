/**
 * A throwaway PostgreSQL cluster (Debian's server binaries) with the project's migrations, for the
 * tests that need what PGlite, a single connection, cannot show: concurrent clients, lock waits,
 * deadlocks. initdb refuses root, so as root the cluster runs as the `postgres` OS user the Debian
 * package creates. Requests run like PostgREST's: a non-superuser login role (`authenticator`, as
 * on Supabase) that switches to anon per transaction and sets request.headers and
 * request.jwt.claims, under Supabase's statement timeouts (tools/supabase-local/statement-timeouts.ts).
 * The setup itself is tools/supabase-local/real-postgres.ts, shared with the scale bench. Each suite
 * gets a database of its own, copied from the migrated template on the one cluster the global setup
 * started (tests/helpers/postgres-setup.ts); a suite with other migrations gets a cluster of its own.
 */
import { inject } from 'vitest'
import { openApiDatabase, startApiPostgres, type RealPostgres } from '@/tools/supabase-local/real-postgres'

export { apiRequest, asApiRequest, type ApiOutcome, type RealPostgres } from '@/tools/supabase-local/real-postgres'

export type RealPostgresStart = { ok: true; postgres: RealPostgres } | { ok: false; reason: string }

export async function startRealPostgres({
  maxConnections = 300,
  migrationsDir,
}: { maxConnections?: number; migrationsDir?: string } = {}): Promise<RealPostgresStart> {
  // Found or installed once by tests/helpers/postgres-setup.ts (Vitest's global setup).
  const binaries = inject('postgres')
  if (!binaries.ok) return binaries
  // A copy of the migrated template on the shared cluster; other migrations need a cluster of their own.
  const shared = inject('sharedPostgres')
  if (shared !== null && !migrationsDir) return { ok: true, postgres: await openApiDatabase(shared, { maxConnections: maxConnections - 20 }) }
  let postgres: RealPostgres
  try {
    postgres = await startApiPostgres(binaries.bin, { maxConnections, ...(migrationsDir ? { migrationsDir } : {}) })
  } catch (error) {
    // A cluster that cannot start is a reason to skip; a migration that fails is a failure.
    if (error instanceof Error && error.message.startsWith('Could not start PostgreSQL')) return { ok: false, reason: error.message }
    throw error
  }
  return { ok: true, postgres }
}
