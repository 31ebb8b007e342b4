import path from 'node:path'
import { localEnv } from '../local/local-env'

// The end-to-end builds have their own output folders, ports and copies of the content,
// so they never collide with a developer's `npm run dev` or `npm run preview`.
// E2E_PORT_OFFSET shifts every port, so two checkouts on one machine can run their suites at once.
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0)

export const E2E = {
  sitePort: 3100 + offset,
  supabasePort: 54329 + offset,
  // maildev for the confirmation e-mails (the local defaults are 1025 and 1080).
  smtpPort: 1026 + offset,
  mailWebPort: 1081 + offset,
  // A second server on the same build whose log a spec reads (e2e/methods.spec.ts).
  loggedSitePort: 3102 + offset,
  // Two more on the same build sharing one Redis (e2e/shared-cache.spec.ts).
  sharedCachePorts: [3103 + offset, 3104 + offset],
  // One missing a secret and holding another dispatch secret, for `npm run launch:check` (e2e/launch-check.spec.ts).
  launchCheckPort: 3112 + offset,
  // Two on one Redis that the fault suite hangs and kills, and a third started while it hangs (e2e/faults-redis.spec.ts).
  faultRedisPorts: [3105 + offset, 3106 + offset, 3107 + offset],
  // A server on the same build with Redis, and Varnish in front of it (e2e/faults-shared-cache.spec.ts).
  varnishFaultPorts: { site: 3108 + offset, cache: 3109 + offset, redis: 3110 + offset },
  // The founders' webhook receiver every delivery of the suite goes to (tools/test/webhook-inbox.ts).
  webhookPort: 3111 + offset,
  // A test-only Standard Webhooks secret: the specs verify each delivery with it.
  webhookSecret: 'whsec_ZTJlLW9ubHktd2ViaG9vay1zZWNyZXQtMDEyMzQ1Njc4OQ==',
  /** Resend's event webhook signing secret (e2e/mail-events.admission.spec.ts signs bounces with it). */
  resendSecret: 'whsec_ZTJlLXJlc2VuZC1ldmVudHMtc2VjcmV0LTAxMjM0NTY3',
  // Rows the confirmation tests need before the site starts (an expired link).
  supabaseSeed: path.join('e2e', 'seed', 'confirmation.sql'),
  distDir: '.next-e2e',
  seedPath: path.join('.local', 'e2e', 'seed.ndjson'),
  // Long, so a page can only change through the publish webhook under test.
  revalidateSeconds: 3600,
} as const

/**
 * The suites' `next start`. Idle connections are kept for 65 s, not Node's 5: a test that pauses
 * (a publish or an unpublish through the CLI, several seconds on a busy machine) and then asks
 * again could send its request as the server closed that socket, and read ECONNRESET (CI, once,
 * in e2e/search.spec.ts).
 */
export const nextStart = (port: number) => `next start --port ${port} --keepAliveTimeout 65000`

/** The second build: content from a stand-in for Sanity's API, for the Sanity-only paths. */
export const E2E_SANITY = {
  sitePort: 3101 + offset,
  standInPort: 3933 + offset,
  distDir: '.next-e2e-sanity',
  datasetPath: path.join('.local', 'e2e', 'sanity-standin.ndjson'),
  // Short: the time-based safety net and the outage are tested on this build.
  revalidateSeconds: 2,
  previewSecret: 'e2e-preview-secret',
} as const

export function e2eEnv(): NodeJS.ProcessEnv {
  return localEnv({
    NEXT_DIST_DIR: E2E.distDir,
    CONTENT_SEED_PATH: E2E.seedPath,
    CONTENT_REVALIDATE_SECONDS: String(E2E.revalidateSeconds),
    // The leaderboard's refresh, shortened so e2e/research.admission.spec.ts sees a choice within seconds.
    LEADERBOARD_REFRESH_SECONDS: '2',
    NEXT_PUBLIC_SUPABASE_URL: `http://127.0.0.1:${E2E.supabasePort}`,
    NEXT_PUBLIC_SITE_URL: `http://localhost:${E2E.sitePort}`,
    // A test key: the browser tests intercept /ingest, so nothing reaches PostHog.
    NEXT_PUBLIC_POSTHOG_KEY: 'phc_e2e_test_key',
    NEXT_PUBLIC_ANALYTICS_ALLOW_AUTOMATION: 'true',
    // Server-only values the bundle scan must not find in anything the browser gets.
    SANITY_API_READ_TOKEN: 'e2e-server-only-read-token',
    SMTP_URL: `smtp://127.0.0.1:${E2E.smtpPort}`,
    OUTBOX_DISPATCH_SECRET: 'e2e-server-only-outbox-dispatch-secret',
    WAITLIST_WEBHOOK_URL: `http://127.0.0.1:${E2E.webhookPort}/hooks/waitlist`,
    WAITLIST_WEBHOOK_SECRET: E2E.webhookSecret,
    RESEND_WEBHOOK_SECRET: E2E.resendSecret,
    // The origin of the stand-in product widget snippet e2e/demo.spec.ts serves.
    PRODUCT_WIDGET_ORIGIN: 'https://widget.heardly.test',
  })
}

export function e2eSanityEnv(): NodeJS.ProcessEnv {
  return {
    ...e2eEnv(),
    NEXT_DIST_DIR: E2E_SANITY.distDir,
    NEXT_PUBLIC_SANITY_PROJECT_ID: 'standin',
    SANITY_API_HOST: `http://127.0.0.1:${E2E_SANITY.standInPort}`,
    SANITY_API_READ_TOKEN: 'standin-read-token',
    CONTENT_REVALIDATE_SECONDS: String(E2E_SANITY.revalidateSeconds),
    NEXT_PUBLIC_SITE_URL: `http://localhost:${E2E_SANITY.sitePort}`,
    // A deployment build: no embedded defaults (content from "Sanity", the waitlist at a configured
    // URL), so its defaults are a deployment's: no sample content, no seed image route.
    EMBEDDED_DEFAULTS: '',
    // Which a deployment refuses over plain http: this build's specs read no webhook.
    WAITLIST_WEBHOOK_URL: '',
    WAITLIST_WEBHOOK_SECRET: '',
  }
}
