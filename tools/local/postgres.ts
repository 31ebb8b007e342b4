import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { run } from './run'

const DEBIAN_ROOT = '/usr/lib/postgresql'

export type PostgresBinaries = { ok: true; bin: string; version: number } | { ok: false; reason: string }

function installedBinaries(): PostgresBinaries | null {
  if (!existsSync(DEBIAN_ROOT)) return null
  const versions = readdirSync(DEBIAN_ROOT)
    .map(Number)
    .filter((version) => Number.isInteger(version) && existsSync(path.join(DEBIAN_ROOT, String(version), 'bin', 'initdb')))
    .sort((a, b) => b - a)
  const version = versions[0]
  return version === undefined ? null : { ok: true, bin: path.join(DEBIAN_ROOT, String(version), 'bin'), version }
}

/**
 * Debian's PostgreSQL server binaries (initdb, pg_ctl), for the tests that need a real server
 * beside PGlite: concurrency (deadlocks, lock waits) only shows with many connections. Installed
 * here with apt-get when missing and running as root (CI); otherwise the answer says why not,
 * and the caller skips with that message. POSTGRES_BIN points at another installation.
 */
export async function ensurePostgres(): Promise<PostgresBinaries> {
  const configured = process.env.POSTGRES_BIN
  if (configured) {
    if (!existsSync(path.join(configured, 'initdb'))) return { ok: false, reason: `POSTGRES_BIN=${configured} has no initdb` }
    return { ok: true, bin: configured, version: 0 }
  }
  const found = installedBinaries()
  if (found) return found
  if (process.getuid?.() !== 0) {
    return { ok: false, reason: `No PostgreSQL server under ${DEBIAN_ROOT}. Install it (sudo apt-get install postgresql) or set POSTGRES_BIN.` }
  }
  console.log('Installing PostgreSQL from Debian (apt-get install postgresql) for the real-Postgres tests…')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  await run('apt-get', ['update', '-qq'], { env })
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'postgresql'], { env })
  return installedBinaries() ?? { ok: false, reason: `apt-get finished but ${DEBIAN_ROOT}/*/bin/initdb is missing` }
}
