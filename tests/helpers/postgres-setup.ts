/**
 * Vitest global setup: finds (or, as root, installs) Debian's PostgreSQL server once, before any
 * test file runs, so suites in parallel workers never run apt-get at the same time. The result
 * reaches the tests through inject('postgres').
 */
import type { TestProject } from 'vitest/node'
import { ensurePostgres, type PostgresBinaries } from '../../tools/local/postgres'

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresBinaries
  }
}

export default async function setup(project: TestProject): Promise<void> {
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
}
