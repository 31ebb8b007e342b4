/**
 * `npm run bench`: builds and serves the production site on the embedded defaults, then
 * prints what a visitor pays: first-load JavaScript, CSS and HTML per route (gzip), and the
 * waitlist's submit latency measured in Chromium. Writes docs/bench.json and docs/bench.md.
 * A benchmark, not a test: it asserts nothing.
 */
import { spawn } from 'node:child_process'
import { mkdir, writeFile } from 'node:fs/promises'
import { chromium } from '@playwright/test'
import { ensureChromium } from './lib/chromium'
import { localEnv } from './lib/local-env'
import { kB, measurePage, type PageWeight } from './lib/page-weight'
import { run, waitForUrl } from './lib/run'
import { MIN_FILL_MS } from '../lib/waitlist/bot-filter'

const SITE_PORT = 3300
const SUPABASE_PORT = 54339
const SIGNUPS = Number(process.env.BENCH_SIGNUPS ?? 60)
const base = `http://localhost:${SITE_PORT}`
const env = localEnv({
  NEXT_DIST_DIR: '.next-bench',
  NEXT_PUBLIC_SUPABASE_URL: `http://127.0.0.1:${SUPABASE_PORT}`,
  NEXT_PUBLIC_SITE_URL: base,
})

const executablePath = await ensureChromium()
const buildStarted = Date.now()
await run('next', ['build'], { env })
const buildSeconds = (Date.now() - buildStarted) / 1000

const servers = [
  // All benchmark sign-ups come from one browser: lift the per-network limit on this throwaway database.
  spawn('tsx', ['supabase/local/main.ts', '--port', String(SUPABASE_PORT), '--memory', '--quiet', '--seed-sql', 'supabase/local/relax-rate-limits.sql'], {
    stdio: 'inherit',
    env,
  }),
  spawn('next', ['start', '--port', String(SITE_PORT)], { stdio: 'ignore', env }),
]
const stopServers = () => servers.forEach((server) => server.kill('SIGTERM'))
process.on('exit', stopServers)

try {
  await waitForUrl(`http://127.0.0.1:${SUPABASE_PORT}/health`)
  await waitForUrl(base)

  const routes: PageWeight[] = []
  for (const path of ['/', '/about', '/waitlist', '/this-page-does-not-exist']) routes.push(await measurePage(base, path))

  const latencies = await measureSubmitLatency(executablePath)
  const report = { date: new Date().toISOString(), buildSeconds, routes, submit: summarize(latencies) }

  const table = [
    '| route | status | scripts | first-load JS (gzip) | CSS (gzip) | HTML (gzip) |',
    '|---|---|---|---|---|---|',
    ...routes.map((r) => `| ${r.path} | ${r.status} | ${r.scripts} | ${kB(r.jsGzip)} | ${kB(r.cssGzip)} | ${kB(r.htmlGzip)} |`),
  ].join('\n')
  const submit = `Waitlist submit latency over ${report.submit.count} sign-ups (click to confirmation, in Chromium, local backend): median ${report.submit.median} ms, p95 ${report.submit.p95} ms, max ${report.submit.max} ms.`
  const markdown = `# Benchmark\n\n${report.date}, production build on the embedded defaults (build: ${buildSeconds.toFixed(0)} s).\n\n${table}\n\n${submit}\n`
  console.log(`\n${markdown}`)
  await mkdir('docs', { recursive: true })
  await writeFile('docs/bench.json', `${JSON.stringify(report, null, 2)}\n`)
  await writeFile('docs/bench.md', markdown)
} finally {
  stopServers()
}

async function measureSubmitLatency(executablePath: string): Promise<number[]> {
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'] })
  const page = await browser.newPage()
  const results: number[] = []
  const stamp = Date.now()
  for (let i = 0; i < SIGNUPS; i++) {
    await page.goto(`${base}/waitlist`)
    await page.getByLabel('Your Name *').fill(`Bench ${i}`)
    await page.getByLabel('Work Email *').fill(`bench.${stamp}.${i}@example.org`)
    // The form ignores submits faster than a person could make them.
    await page.waitForFunction((ms) => performance.now() > ms, MIN_FILL_MS + 500)
    // Timed inside the page: from the submit event to the confirmation heading in the DOM.
    const elapsed = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let start = 0
          document.querySelector('form')?.addEventListener('submit', () => (start = performance.now()), { capture: true, once: true })
          new MutationObserver((_, observer) => {
            if (start && document.getElementById('confirmation-title')) {
              observer.disconnect()
              resolve(performance.now() - start)
            }
          }).observe(document.body, { childList: true, subtree: true })
        }),
    )
    await page.getByRole('button', { name: 'Join Waitlist' }).click()
    results.push(await elapsed)
  }
  await browser.close()
  return results
}

function summarize(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!)
  // `first` includes downloading the database client on the first submit of the session.
  return { count: sorted.length, median: at(0.5), p95: at(0.95), max: Math.round(sorted[sorted.length - 1]!), first: Math.round(values[0]!) }
}
