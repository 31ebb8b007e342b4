/**
 * `npm run preview`: builds the production site on the embedded defaults (seed content,
 * local waitlist database) and serves it at http://localhost:$PORT (3000).
 */
import { localEnv } from './lib/local-env'
import { startLocalStack } from './lib/local-stack'
import { run } from './lib/run'

const port = process.env.PORT ?? '3000'
await run('next', ['build'], { env: localEnv() })
await startLocalStack(['start'], port)
