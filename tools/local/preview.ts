/**
 * `npm run preview`: builds the production site on the embedded defaults (seed content,
 * local waitlist database) and serves it at http://localhost:$PORT (3000).
 *
 * `npm run preview -- --instances 2`: two servers of the same build, on PORT and PORT+1, sharing one
 * Redis (Debian's redis-server, installed when missing, on REDIS_PORT (6380), its files in
 * .local/redis; or the one REDIS_URL names) and one content source (the local dataset `content:publish` writes).
 */
import { parseArgs } from 'node:util'
import path from 'node:path'
import { localEnv } from './local-env'
import { startLocalStack } from './local-stack'
import { LOCAL_REDIS_PORT, startRedis } from './redis'
import { assertPortFree, run } from './run'

const { values } = parseArgs({ options: { instances: { type: 'string', default: '1' } } })
const instances = Number(values.instances)
if (!Number.isInteger(instances) || instances < 1 || instances > 8) {
  console.error(`--instances must be a whole number from 1 to 8 (got ${values.instances})`)
  process.exit(2)
}
const port = Number(process.env.PORT ?? '3000')
const ports = Array.from({ length: instances }, (_, index) => String(port + index))
for (const each of ports) await assertPortFree(Number(each), 'a site instance')

// One build serves every instance: REDIS_URL is read again by `next start` (next.config.ts).
await run('next', ['build'], { env: localEnv() })
const overrides: Record<string, string> = {}
if (instances > 1 && !process.env.REDIS_URL) {
  const redisPort = Number(process.env.REDIS_PORT ?? LOCAL_REDIS_PORT)
  await assertPortFree(redisPort, 'the local Redis')
  const redis = await startRedis(redisPort, path.join('.local', 'redis'))
  process.on('exit', () => redis.process.kill())
  overrides.REDIS_URL = redis.url
  console.log(`Shared cache: ${redis.url} (redis-server, log in .local/redis/redis.log)`)
}
if (instances > 1)
  console.log(
    `Instances: ${ports.map((each) => `http://localhost:${each}`).join(', ')}; publish to one with \`npm run content:publish -- <file> --site http://localhost:${port}\``,
  )
await startLocalStack(['start'], ports, overrides)
