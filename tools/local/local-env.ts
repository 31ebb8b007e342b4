import nextEnv from '@next/env'
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../supabase-local/keys'

// Read .env.local and friends the way Next will, so a developer's real Supabase settings
// there are seen here too, rather than shadowed by the local defaults below.
nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== 'production')

export const LOCAL_SUPABASE_PORT = 54321
export const LOCAL_REVALIDATE_SECRET = 'local-only-revalidate-secret'
// maildev's own defaults, as the README promises a newcomer.
export const LOCAL_SMTP_PORT = 1025
export const LOCAL_MAIL_WEB_PORT = 1080
export const LOCAL_OUTBOX_SECRET = 'local-only-outbox-dispatch-secret'
/** What the product's app sends to redeem invitations against a local run; a deployment sets its own. */
export const LOCAL_INVITATION_REDEEM_SECRET = 'local-only-invitation-redeem-secret'

/**
 * The environment of a local run: embedded content and the local waitlist database,
 * unless the developer configured real projects in their own environment.
 */
export function localEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_DEFAULTS: 'true', ...overrides }
  env.NEXT_PUBLIC_SUPABASE_URL ||= `http://127.0.0.1:${LOCAL_SUPABASE_PORT}`
  env.NEXT_PUBLIC_SUPABASE_ANON_KEY ||= LOCAL_ANON_KEY
  // Lets `npm run content:publish` revalidate the local site; a deployment sets its own.
  env.SANITY_REVALIDATE_SECRET ||= LOCAL_REVALIDATE_SECRET
  // The outbox dispatcher: maildev unless the developer set their own SMTP server, the local
  // double's demo service key only for the local double (never guessed for a real project).
  env.SMTP_URL ||= `smtp://127.0.0.1:${LOCAL_SMTP_PORT}`
  env.EMAIL_FROM ||= 'waitlist@example.com'
  env.OUTBOX_DISPATCH_SECRET ||= LOCAL_OUTBOX_SECRET
  env.INVITATION_REDEEM_SECRET ||= LOCAL_INVITATION_REDEEM_SECRET
  if (usesLocalSupabase(env)) env.SUPABASE_SERVICE_ROLE_KEY ||= LOCAL_SERVICE_ROLE_KEY
  env.NEXT_TELEMETRY_DISABLED = '1'
  return env
}

/** True when the waitlist goes to the embedded database, which this process must then start. */
export function usesLocalSupabase(env: NodeJS.ProcessEnv): boolean {
  const url = new URL(env.NEXT_PUBLIC_SUPABASE_URL ?? '')
  return (url.hostname === '127.0.0.1' || url.hostname === 'localhost') && env.NEXT_PUBLIC_SUPABASE_ANON_KEY === LOCAL_ANON_KEY
}

/** True when e-mail goes to the embedded maildev, which this process must then start. */
export function usesLocalMail(env: NodeJS.ProcessEnv): boolean {
  return env.SMTP_URL === `smtp://127.0.0.1:${LOCAL_SMTP_PORT}`
}
