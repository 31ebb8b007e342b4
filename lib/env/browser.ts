/**
 * The configuration a client island reads in the browser. Next inlines only literal
 * `process.env.NEXT_PUBLIC_*` expressions into the browser bundle, and zod would cost the
 * islands kilobytes, so this part holds raw reads and no validation: lib/env (imported by
 * next.config.ts) validates these same values when the site is built, so a bad one stops the
 * build instead of reaching a visitor. Read it as `import { browserEnv } from '@/lib/env/browser'`.
 */
export const browserEnv = {
  posthogKey: process.env.NEXT_PUBLIC_POSTHOG_KEY?.trim() || undefined,
  /** posthog-js drops events from automated browsers; only the end-to-end build turns that off. */
  analyticsAllowAutomation: process.env.NEXT_PUBLIC_ANALYTICS_ALLOW_AUTOMATION === 'true',
}
