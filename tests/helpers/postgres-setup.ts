/**
 * Vitest global setup: finds (or, as root, installs) Debian's PostgreSQL server once, before any
 * test file runs, so suites in parallel workers never run apt-get at the same time; then starts one
 * cluster whose template database has every migration, from which each real-server suite takes a
 * copy of its own (tests/helpers/real-postgres.ts), instead of starting and migrating a cluster
 * each. The result reaches the tests through inject('postgres') and inject('sharedPostgres').
 */
import type { TestProject } from 'vitest/node'
import { ensurePostgres, type PostgresBinaries } from '../../tools/local/postgres'
import { startApiTemplate } from '../../tools/supabase-local/real-postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresBinaries
    /** The port of the cluster with the migrated template; null when there is no server. */
    sharedPostgres: number | null
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const binaries = await ensurePostgres().catch((error: unknown): PostgresBinaries => ({
    ok: false,
    reason: `Installing PostgreSQL failed: ${error instanceof Error ? error.message : String(error)}`,
  }))
  if (!binaries.ok) {
    // CI runs as root with apt: there the real-server suites must run, not be skipped.
    if (process.env.CI && process.getuid?.() === 0) throw new Error(`Real PostgreSQL is required in CI: ${binaries.reason}`)
    console.info(`[real PostgreSQL] the suites that need it are skipped: ${binaries.reason}`)
  }
  project.provide('postgres', binaries)
  const shared = binaries.ok ? await startApiTemplate(binaries.bin) : null
  project.provide('sharedPostgres', shared?.port ?? null)
  return async () => {
    await shared?.stop()
  }
}
