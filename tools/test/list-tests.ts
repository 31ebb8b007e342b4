/**
 * Every test's name, one a line, sorted: Vitest's (file › describe › test) and Playwright's for
 * both configurations (project › file › test), as `npm run test:list -- FILE` writes them. Two
 * listings, before and after a change to the tests, compared with `diff`, show that none was lost
 * (issue #67). Collects the suites without running them; Vitest's global setup still starts its
 * PostgreSQL, and a suite that starts a server while it is collected starts it.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const [out] = process.argv.slice(2)
if (!out) {
  console.error('Usage: npm run test:list -- FILE')
  process.exit(2)
}

const dir = await mkdtemp(path.join(tmpdir(), 'list-tests-'))
try {
  const vitestJson = path.join(dir, 'vitest.json')
  await run('vitest', ['list', `--json=${vitestJson}`], { maxBuffer: 64 * 1024 * 1024 })
  const vitest = (JSON.parse(await readFile(vitestJson, 'utf8')) as { name: string; file: string }[]).map(
    (test) => `vitest › ${path.relative(process.cwd(), test.file)} › ${test.name}`,
  )
  const playwright: string[] = []
  for (const config of ['playwright.config.ts', 'playwright.sanity.config.ts']) {
    const { stdout } = await run('playwright', ['test', '--config', config, '--list', '--reporter=json'], { maxBuffer: 64 * 1024 * 1024 })
    type Suite = { title: string; file?: string; suites?: Suite[]; specs?: { title: string; tests: { projectName: string }[] }[] }
    const walk = (suite: Suite, titles: string[]) => {
      const here = suite.file && titles.length === 0 ? [suite.file] : [...titles, suite.title]
      for (const spec of suite.specs ?? [])
        for (const test of spec.tests) playwright.push(`playwright › ${test.projectName} › ${[...here, spec.title].join(' › ')}`)
      for (const child of suite.suites ?? []) walk(child, here)
    }
    for (const suite of (JSON.parse(stdout) as { suites: Suite[] }).suites) walk(suite, [])
  }
  const lines = [...vitest, ...playwright].sort()
  await writeFile(out, `${lines.join('\n')}\n`)
  console.log(`${lines.length} tests (${vitest.length} Vitest, ${playwright.length} Playwright) written to ${out}`)
} finally {
  await rm(dir, { recursive: true, force: true })
}
