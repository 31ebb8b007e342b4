import { spawn, type ChildProcess } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import { ensureDebianBinary } from './debian'
import { waitForPort } from './run'

const REDIS_SERVER = '/usr/bin/redis-server'

/** Where the local runs' shared cache listens: not Redis's 6379, which a developer's own Redis may hold. */
export const LOCAL_REDIS_PORT = 6380

/**
 * Debian's redis-server, for the local runs with several instances and the tests of the shared
 * cache: installed here with apt-get when missing and running as root (CI, a fresh machine);
 * otherwise the error says how. REDIS_SERVER points at another installation.
 */
export function ensureRedis(): Promise<string> {
  return ensureDebianBinary({
    binary: REDIS_SERVER,
    pkg: 'redis-server',
    override: { name: 'REDIS_SERVER', value: process.env.REDIS_SERVER },
    purpose: 'the shared cache',
  })
}

export interface LocalRedis {
  url: string
  process: ChildProcess
  stop(): Promise<void>
}

/**
 * A redis-server of our own on `port` (127.0.0.1 only), its files in `dir`: a cache, so nothing is
 * saved to disk, and every run starts empty.
 */
export async function startRedis(port: number, dir: string): Promise<LocalRedis> {
  const server = await ensureRedis()
  await mkdir(dir, { recursive: true })
  // Absolute: redis-server changes into --dir before it opens the log.
  const log = path.resolve(dir, 'redis.log')
  const child = spawn(
    server,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', path.resolve(dir), '--logfile', log, '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    { stdio: 'ignore' },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  await waitForPort(port, child, `redis-server (see ${log})`)
  return {
    url: `redis://127.0.0.1:${port}`,
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
