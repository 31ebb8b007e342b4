/**
 * `npm run test:e2e`: builds the production site for testing, then runs Playwright in
 * Chromium against it (playwright.config.ts starts the servers). Extra arguments go to
 * Playwright, e.g. `npm run test:e2e -- e2e/navigation.spec.ts`.
 */
import { copyFile, mkdir } from 'node:fs/promises'
import path from 'node:path'
import { ensureChromium } from './lib/chromium'
import { E2E, e2eEnv } from './lib/e2e-env'
import { run } from './lib/run'

const chromium = await ensureChromium()
await mkdir(path.dirname(E2E.seedPath), { recursive: true })
await copyFile('sanity/seed/production.ndjson', E2E.seedPath)
if (process.env.E2E_SKIP_BUILD !== '1') await run('next', ['build'], { env: e2eEnv() })
await run('playwright', ['test', ...process.argv.slice(2)], { env: { ...e2eEnv(), CHROME_PATH: chromium } })
