/**
 * `npm test`: every check CI runs, in order, stopping at the first failure.
 * The generated Sanity and database types, and the disposable-mail domains, must match their sources; then formatting, lint, types, the
 * database's two descriptions (migrations and schemas) against each other, unit and
 * integration tests, and the end-to-end tests in Chromium.
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
  ['End-to-end tests (Chromium)', 'tsx', ['tools/test/e2e.ts']],
]

const started = Date.now()
for (const [title, command, args] of steps) {
  console.log(`\n▶ ${title}`)
  try {
    await run(command, args)
  } catch {
    console.error(`\n✘ ${title} failed: see the output above.`)
    process.exit(1)
  }
}
console.log(`\nAll checks passed in ${Math.round((Date.now() - started) / 1000)} s.`)
