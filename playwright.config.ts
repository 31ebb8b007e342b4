import { defineConfig, devices } from '@playwright/test'
import { E2E, e2eEnv, nextStart } from './tools/test/e2e-env'
import { CHROMIUM_ARGS } from './tools/local/chromium'
import { DELIVERIES_PATH } from './tools/test/webhook-receiver'

const baseURL = `http://localhost:${E2E.sitePort}`

/**
 * The desktop specs that change nothing another spec reads: they read the seed's pages, or add
 * sign-ups no spec of theirs counts (only the serial specs read the line). No publish, no server
 * of their own, nothing timed on the server (e2e/request-bodies.spec.ts samples its memory:
 * serial). A spec added here must not read what another changes.
 */
const PARALLEL_SPECS = [
  'accessibility',
  'analytics',
  'bot-filters',
  'bundle',
  'header',
  'landing-sections',
  'navigation',
  'page-weight',
  'pages',
  'prerender',
  'reflow',
  'routes',
  'security',
  'seo',
  'studio-setup',
].map((name) => new RegExp(`/e2e/${name}\\.spec\\.ts$`))

export default defineConfig({
  testDir: 'e2e',
  // The Sanity-only specs run against their own build: playwright.sanity.config.ts.
  testIgnore: /\.sanity\.spec\.ts$/,
  // Two workers for the specs that change nothing another reads (PARALLEL_SPECS, every phone spec); those that
  // change content or the line, start servers or time the server run on one, after them.
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL,
    // A trace records a snapshot and a screenshot of every action, which slows every test on two
    // cores. CI keeps only the log, so it records none; a local run keeps the failures' traces.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    // Pages as they are: these change nothing another spec reads, so their tests spread over both
    // workers. They run first, before any spec publishes.
    { name: 'pages', use: { ...devices['Desktop Chrome'] }, testMatch: PARALLEL_SPECS, fullyParallel: true },
    { name: 'phone', use: { ...devices['Pixel 7'] }, testMatch: /\.phone\.spec\.ts$/, fullyParallel: true },
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'] },
      testIgnore: [/\.phone\.spec\.ts$/, /\.sanity\.spec\.ts$/, /\.admission\.spec\.ts$/, ...PARALLEL_SPECS],
      workers: 1,
      dependencies: ['pages', 'phone'],
    },
    // Letting people in changes who waits in line, which other specs read: these run after them all.
    { name: 'admission', use: { ...devices['Desktop Chrome'] }, testMatch: /\.admission\.spec\.ts$/, workers: 1, dependencies: ['desktop'] },
  ],
  webServer: [
    {
      command: `tsx tools/supabase-local/main.ts --port ${E2E.supabasePort} --memory --seed-sql ${E2E.supabaseSeed}`,
      url: `http://127.0.0.1:${E2E.supabasePort}/health`,
      reuseExistingServer: false,
      env: e2eEnv() as Record<string, string>,
    },
    {
      command: nextStart(E2E.sitePort),
      url: baseURL,
      reuseExistingServer: false,
      env: e2eEnv() as Record<string, string>,
      timeout: 60_000,
    },
    {
      // The founders' webhook receiver: every delivery of the suite, read back by the specs that check one.
      command: `tsx tools/test/webhook-inbox.ts --port ${E2E.webhookPort} --secret ${E2E.webhookSecret}`,
      url: `http://127.0.0.1:${E2E.webhookPort}${DELIVERIES_PATH}`,
      reuseExistingServer: false,
    },
    {
      // maildev and the outbox dispatch loop (every half second: the e-mail arrives while a person
      // switches to their inbox).
      command: `tsx tools/local/mail-catcher.ts --smtp ${E2E.smtpPort} --web ${E2E.mailWebPort} --site ${baseURL} --interval 500`,
      url: `http://127.0.0.1:${E2E.mailWebPort}/api/healthz`,
      reuseExistingServer: false,
      // Asked to stop, not killed: maildev then removes this run's mail folder (tools/local/local-mail.ts).
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
      env: e2eEnv() as Record<string, string>,
    },
  ],
})
