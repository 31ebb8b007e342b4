/**
 * `npm run preview`: builds the production site on the embedded defaults (seed content,
 * local waitlist database) and serves it at http://localhost:$PORT (3000).
 */
import { localEnv } from './local-env'
import { startLocalStack } from './local-stack'
import { run } from './run'

const port = process.env.PORT ?? '3000'
await run('next', ['build'], { env: localEnv() })
await startLocalStack(['start'], port)
