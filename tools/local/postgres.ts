import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir, userInfo } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type pg from 'pg'
import type { MigrationTarget } from '../supabase-local/migrate'
import { freePort, run } from './run'

const exec = promisify(execFile)

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

export interface PostgresCluster {
  port: number
  /** Also the folder of its Unix socket. */
  dir: string
  stop(): Promise<void>
}

/**
 * A throwaway cluster from Debian's server binaries on a free port, data in a temporary folder
 * removed on stop. initdb refuses root, so as root the cluster runs as the `postgres` OS user the
 * Debian package creates. fsync is off: nothing here outlives the process.
 */
export async function startPostgresCluster(
  bin: string,
  { maxConnections = 300, settings = [] }: { maxConnections?: number; /** More `name=value` server settings (the scale bench's). */ settings?: string[] } = {},
): Promise<PostgresCluster> {
  const root = process.getuid?.() === 0
  const osUser = root ? 'postgres' : userInfo().username
  const as = (command: string, args: string[]) => (root ? exec('runuser', ['-u', osUser, '--', command, ...args]) : exec(command, args))
  const dir = await mkdtemp(path.join(tmpdir(), 'waitlist-pg-'))
  const data = path.join(dir, 'data')
  if (root) {
    const { stdout } = await exec('id', ['-u', osUser])
    const { stdout: gid } = await exec('id', ['-g', osUser])
    await chown(dir, Number(stdout.trim()), Number(gid.trim()))
  }
  await chmod(dir, 0o700)
  const port = await freePort()
  const tool = (name: string) => path.join(bin, name)
  try {
    await as(tool('initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'])
    await as(tool('pg_ctl'), [
      '-D',
      data,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      'start',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=${maxConnections} -c fsync=off -c deadlock_timeout=200ms${settings.map((setting) => ` -c ${setting}`).join('')}`,
    ])
  } catch (error) {
    await rm(dir, { recursive: true, force: true })
    throw new Error(`Could not start PostgreSQL from ${bin}: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
  return {
    port,
    dir,
    async stop() {
      await as(tool('pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {})
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** A `pg` client as what applying migrations or schemas needs (tools/supabase-local/migrate.ts). */
export function migrationTarget(client: pg.Client): MigrationTarget {
  const query = async <T>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params)).rows as T[] })
  const execSql = (sql: string) => client.query(sql)
  return {
    exec: execSql,
    query,
    async transaction(work) {
      await client.query('begin')
      try {
        const result = await work({ exec: execSql, query })
        await client.query('commit')
        return result
      } catch (error) {
        await client.query('rollback')
        throw error
      }
    },
  }
}
