/**
 * `npm test`: every check CI runs, in order, stopping after the first stage with a failure.
 * The generated Sanity and database types, and the disposable-mail domains, must match their sources; then formatting, lint, types, the
 * database's two descriptions (migrations and schemas) against each other, unit and
 * integration tests, and the end-to-end tests in Chromium. Prints each step's time as it ends, and
 * all of them at the end.
 */
import { run } from '../local/run'

type Step = [title: string, command: string, args: string[]]

/**
 * Stages run one after another; the steps of a stage side by side. The checks that only read the
 * sources (each of them one process on one core) share the two cores; the generators before them
 * rewrite files those read (sanity/types.generated.ts, .next/types), and the test steps use both
 * cores themselves.
 */
const stages: Step[][] = [
  [['Sanity types are up to date', 'tsx', ['tools/test/check-typegen.ts']]],
  [['Database types are up to date', 'tsx', ['tools/db/typegen.ts', '--check']]],
  [['Disposable-mail domains match the pinned package', 'tsx', ['tools/db/disposable-domains.ts', '--check']]],
  [['Route types', 'next', ['typegen']]],
  [
    ['Type check', 'tsc', ['--noEmit']],
    ['Lint', 'eslint', ['--max-warnings', '0', '.']],
    // Prettier (.prettierrc.json), one style for every file it reads; .prettierignore says what it leaves.
    ['Formatting', 'prettier', ['--check', '.']],
    ['Migrations and schemas build the same database; squawk', 'tsx', ['tools/db/check.ts']],
  ],
  [['Unit and integration tests', 'vitest', ['run']]],
  [['End-to-end tests (Chromium; the sign-up path also in Firefox and WebKit)', 'tsx', ['tools/test/e2e.ts']]],
]

const seconds = (since: number) => Math.round((performance.now() - since) / 1000)
// Each step's time, printed as it ends and again as a table at the end: where the run's time goes.
// Steps of one stage overlap, so their times add up to more than the stage took.
const times: [string, number][] = []
const table = () => times.map(([title, took]) => `  ${String(took).padStart(5)} s  ${title}`).join('\n')
const started = performance.now()
for (const stage of stages) {
  const stageStarted = performance.now()
  if (stage.length > 1) console.log(`\n▶ Side by side: ${stage.map(([title]) => title).join('; ')}`)
  const results = await Promise.allSettled(
    stage.map(async ([title, command, args]) => {
      if (stage.length === 1) console.log(`\n▶ ${title}`)
      const stepStarted = performance.now()
      try {
        await run(command, args, { holdOutput: stage.length > 1 })
      } catch (error) {
        times.push([`${title} (failed)`, seconds(stepStarted)])
        console.error(`\n✘ ${title} failed after ${seconds(stepStarted)} s: see the output above.`)
        throw error
      }
      times.push([title, seconds(stepStarted)])
      console.log(`✔ ${title} in ${seconds(stepStarted)} s`)
    }),
  )
  if (stage.length > 1) times.push([`  (the ${stage.length} steps above, side by side)`, seconds(stageStarted)])
  if (results.some((result) => result.status === 'rejected')) {
    console.error(`\nEach step's time:\n${table()}`)
    process.exit(1)
  }
}
console.log(`\nEach step's time:\n${table()}\n\nAll checks passed in ${seconds(started)} s.`)
