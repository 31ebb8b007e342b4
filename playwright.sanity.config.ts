import { defineConfig } from '@playwright/test'
import base from './playwright.config'
import { E2E_SANITY, e2eSanityEnv, nextStart } from './tools/test/e2e-env'

const baseURL = `http://localhost:${E2E_SANITY.sitePort}`

/** The build whose content comes from the Sanity stand-in that tools/test/e2e.ts starts. */
export default defineConfig({
  ...base,
  // Each of these publishes or takes the stand-in down: one at a time.
  workers: 1,
  testMatch: /\.sanity\.spec\.ts$/,
  testIgnore: [],
  projects: [{ name: 'sanity', use: { ...base.projects?.[0]?.use, baseURL } }],
  use: { ...base.use, baseURL },
  webServer: {
    command: nextStart(E2E_SANITY.sitePort),
    url: baseURL,
    reuseExistingServer: false,
    env: e2eSanityEnv() as Record<string, string>,
    timeout: 60_000,
  },
})
