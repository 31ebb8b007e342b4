/**
 * `npm run test:faults`: the fault suite alone, the faults a bad day brings (a hung or killed
 * Redis, a slow or hung webhook receiver, a hung SMTP server, the database gone mid-dispatch,
 * Sanity failing during a publish), each checked for what the visitor sees, that nothing is lost
 * or sent twice, and that service resumes by itself (docs/engineers.md, "Faults"). `npm test` runs
 * the same files among the others; this is for working on one fault at a time.
 */
import { readdir } from 'node:fs/promises'
import { run } from '../local/run'

const specs = (await readdir('e2e')).filter((name) => /^faults-.*\.spec\.ts$/.test(name)).map((name) => `e2e/${name}`)
await run('vitest', ['run', 'tests/faults'])
if (specs.length > 0) await run('tsx', ['tools/test/e2e.ts', ...specs])
