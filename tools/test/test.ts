/**
 * `npm test`: every check CI runs, in order, stopping at the first failure.
 * The generated Sanity and database types, and the disposable-mail domains, must match their sources; then formatting, lint, types, the
 * database's two descriptions (migrations and schemas) against each other, unit and
 * integration tests, and the end-to-end tests in Chromium. Prints each step's time as it ends, and
 * all of them at the end.
 */
import { run } from '../local/run'

const steps: [string, string, string[]][] = [
  ['Sanity types are up to date', 'tsx', ['tools/test/check-typegen.ts']],
  ['Database types are up to date', 'tsx', ['tools/db/typegen.ts', '--check']],
  ['Disposable-mail domains match the pinned package', 'tsx', ['tools/db/disposable-domains.ts', '--check']],
  // Prettier (.prettierrc.json), one style for every file it reads; .prettierignore says what it leaves.
  ['Formatting', 'prettier', ['--check', '.']],
  ['Lint', 'eslint', ['--max-warnings', '0', '.']],
  ['Route types', 'next', ['typegen']],
  ['Type check', 'tsc', ['--noEmit']],
  ['Migrations and schemas build the same database; squawk', 'tsx', ['tools/db/check.ts']],
  ['Unit and integration tests', 'vitest', ['run']],
  ['End-to-end tests (Chromium; the sign-up path also in Firefox and WebKit)', 'tsx', ['tools/test/e2e.ts']],
]

const seconds = (since: number) => Math.round((performance.now() - since) / 1000)
// Each step's time, printed as it ends and again as a table at the end: where the run's time goes.
const times: [string, number][] = []
const table = () => times.map(([title, took]) => `  ${String(took).padStart(5)} s  ${title}`).join('\n')
const started = performance.now()
for (const [title, command, args] of steps) {
  console.log(`\n▶ ${title}`)
  const stepStarted = performance.now()
  try {
    await run(command, args)
  } catch {
    times.push([`${title} (failed)`, seconds(stepStarted)])
    console.error(`\n✘ ${title} failed after ${seconds(stepStarted)} s: see the output above.\n\nEach step's time:\n${table()}`)
    process.exit(1)
  }
  times.push([title, seconds(stepStarted)])
  console.log(`✔ ${title} in ${seconds(stepStarted)} s`)
}
console.log(`\nEach step's time:\n${table()}\n\nAll checks passed in ${seconds(started)} s.`)
