import path from 'node:path'
import { localEnv } from './local-env'

// The end-to-end build has its own output folder, ports and copy of the seed, so it never
// collides with a developer's `npm run dev` or `npm run preview`.
export const E2E = {
  sitePort: 3100,
  supabasePort: 54329,
  distDir: '.next-e2e',
  seedPath: path.join('.local', 'e2e', 'seed.ndjson'),
  // Short, so a test can change the seed copy and watch the page follow.
  revalidateSeconds: 2,
} as const

export function e2eEnv(): NodeJS.ProcessEnv {
  return localEnv({
    NEXT_DIST_DIR: E2E.distDir,
    CONTENT_SEED_PATH: E2E.seedPath,
    CONTENT_REVALIDATE_SECONDS: String(E2E.revalidateSeconds),
    NEXT_PUBLIC_SUPABASE_URL: `http://127.0.0.1:${E2E.supabasePort}`,
    NEXT_PUBLIC_SITE_URL: `http://localhost:${E2E.sitePort}`,
    // A test key: the browser tests intercept /ingest, so nothing reaches PostHog.
    NEXT_PUBLIC_POSTHOG_KEY: 'phc_e2e_test_key',
    NEXT_PUBLIC_ANALYTICS_ALLOW_AUTOMATION: 'true',
  })
}
