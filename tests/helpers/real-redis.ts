import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startRedis, type LocalRedis } from '@/tools/local/redis'
import { freePort } from '@/tools/local/run'

/** A throwaway redis-server (Debian's, installed like `npm run preview -- --instances 2` does) on a free port. */
export async function startTestRedis(): Promise<LocalRedis> {
  const dir = await mkdtemp(path.join(tmpdir(), 'redis-'))
  const redis = await startRedis(await freePort(), dir)
  return {
    ...redis,
    async stop() {
      await redis.stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
