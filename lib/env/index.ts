import { z } from 'zod'

/**
 * The one place that reads configuration (create-t3-app's pattern): every value is validated
 * here, and next.config.ts imports this module so a bad value fails `next build` rather than a
 * visitor's request. Public values are read through literal `process.env.NEXT_PUBLIC_*`
 * expressions because Next inlines only those into the browser bundle; the two a client island
 * needs are in ./browser.ts (no zod in the islands) and checked here with the rest. Server-only
 * values are read lazily so the browser never sees them.
 */

const optional = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional()

const publicSchema = z.object({
  sanityProjectId: optional.pipe(
    z
      .string()
      .regex(/^[a-z0-9-]+$/, 'must be lower-case letters, digits and dashes')
      .optional(),
  ),
  sanityDataset: z
    .string()
    .trim()
    .regex(/^[a-z0-9_-]+$/)
    .default('production'),
  sanityApiVersion: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .default('2026-11-01'),
  siteUrl: z.url().default('http://localhost:3000'),
  supabaseUrl: optional.pipe(z.url().optional()),
  supabaseAnonKey: optional,
  posthogKey: optional,
  analyticsAllowAutomation: z.enum(['true', 'false']).optional(),
  /** The product's own demo widget's origin, trusted by the Content-Security-Policy (build time). */
  productWidgetOrigin: optional.pipe(z.url().optional()),
})

export type PublicEnv = z.infer<typeof publicSchema>

function parse<T extends z.ZodType>(schema: T, values: Record<string, unknown>, names: Record<string, string>): z.infer<T> {
  const result = schema.safeParse(values)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? '')
    return `  ${names[key] ?? key}: ${issue.message}`
  })
  throw new Error(`Invalid environment configuration:\n${problems.join('\n')}\nSee the README's configuration table.`)
}

const publicNames: Record<keyof PublicEnv, string> = {
  sanityProjectId: 'NEXT_PUBLIC_SANITY_PROJECT_ID',
  sanityDataset: 'NEXT_PUBLIC_SANITY_DATASET',
  sanityApiVersion: 'NEXT_PUBLIC_SANITY_API_VERSION',
  siteUrl: 'NEXT_PUBLIC_SITE_URL',
  supabaseUrl: 'NEXT_PUBLIC_SUPABASE_URL',
  supabaseAnonKey: 'NEXT_PUBLIC_SUPABASE_ANON_KEY',
  posthogKey: 'NEXT_PUBLIC_POSTHOG_KEY',
  analyticsAllowAutomation: 'NEXT_PUBLIC_ANALYTICS_ALLOW_AUTOMATION',
  productWidgetOrigin: 'PRODUCT_WIDGET_ORIGIN',
}

export const publicEnv: PublicEnv = parse(
  publicSchema,
  {
    sanityProjectId: process.env.NEXT_PUBLIC_SANITY_PROJECT_ID,
    sanityDataset: process.env.NEXT_PUBLIC_SANITY_DATASET || undefined,
    sanityApiVersion: process.env.NEXT_PUBLIC_SANITY_API_VERSION || undefined,
    siteUrl: process.env.NEXT_PUBLIC_SITE_URL || undefined,
    supabaseUrl: process.env.NEXT_PUBLIC_SUPABASE_URL,
    supabaseAnonKey: process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY,
    posthogKey: process.env.NEXT_PUBLIC_POSTHOG_KEY,
    analyticsAllowAutomation: process.env.NEXT_PUBLIC_ANALYTICS_ALLOW_AUTOMATION || undefined,
    // Read at build only (next.config.ts's headers); not inlined into any bundle.
    productWidgetOrigin: process.env.PRODUCT_WIDGET_ORIGIN,
  },
  publicNames,
)

const serverSchema = z
  .object({
    embeddedDefaults: z.boolean(),
    contentSeedPath: z.string().default('sanity/seed/production.ndjson'),
    contentRevalidateSeconds: z.coerce.number().int().positive().default(60),
    /** How old the leaderboard page may be (components/waitlist/leaderboard.ts): within a minute of a change, as issue #69 asks. */
    leaderboardRefreshSeconds: z.coerce.number().int().min(1).max(60).default(30),
    sanityApiHost: optional.pipe(z.url().optional()),
    sanityReadToken: optional,
    revalidateSecret: optional,
    /** Items flagged as sample content: shown (marked) on a developer's machine and previews, hidden on a deployed site. */
    sampleContent: z.enum(['show', 'hide']),
    // The waitlist's outbox dispatcher (components/waitlist/outbox): server only, never in the browser.
    supabaseServiceRoleKey: optional,
    outboxSecret: optional.pipe(z.string().min(24, 'must be at least 24 characters').optional()),
    smtpUrl: optional.pipe(
      z
        .url()
        .refine((url) => /^smtps?:/.test(url), 'must start with smtp:// or smtps://')
        .optional(),
    ),
    emailFrom: optional.pipe(z.email().optional()),
    slackWebhookUrl: optional.pipe(
      z
        .url()
        .refine((url) => /^https?:/.test(url), 'must be an http(s) URL')
        .optional(),
    ),
    slackIncludeEmail: z.boolean(),
    /** The product's app redeems invitations with it (POST /api/invitations/redeem): server only. */
    invitationRedeemSecret: optional.pipe(z.string().min(24, 'must be at least 24 characters').optional()),
    /** The founders' own tools hear the list's events here (components/waitlist/outbox/webhook.ts). */
    webhookUrl: optional.pipe(z.url().optional()),
    webhookSecret: optional.pipe(z.string().refine(webhookSecretValid, 'must be whsec_ followed by the base64 of at least 24 random bytes').optional()),
    /** The mail providers' event webhooks (components/waitlist/mail-events): each provider's is answered only when its settings are set. */
    resendWebhookSecret: optional.pipe(z.string().refine(webhookSecretValid, 'must be whsec_ followed by the base64 of at least 24 random bytes').optional()),
    postmarkWebhookUser: optional,
    postmarkWebhookPassword: optional.pipe(z.string().min(24, 'must be at least 24 characters').optional()),
    sesSnsTopicArn: optional.pipe(
      z
        .string()
        .regex(/^arn:aws(-[a-z]+)*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/, 'must be an SNS topic ARN')
        .optional(),
    ),
    /** The Redis every instance shares: Next's cache and the proxy's published addresses (lib/cache). Unset: one instance, its own memory. */
    redisUrl: optional.pipe(
      z
        .url()
        .refine((url) => /^rediss?:\/\//.test(url), 'must start with redis:// or rediss://')
        .optional(),
    ),
  })
  .superRefine((env, context) => {
    if (Boolean(env.postmarkWebhookUser) !== Boolean(env.postmarkWebhookPassword)) {
      context.addIssue({
        code: 'custom',
        path: [env.postmarkWebhookUser ? 'postmarkWebhookPassword' : 'postmarkWebhookUser'],
        message: 'set POSTMARK_WEBHOOK_USER and POSTMARK_WEBHOOK_PASSWORD together, or neither',
      })
    }
    if (Boolean(env.webhookUrl) !== Boolean(env.webhookSecret)) {
      context.addIssue({
        code: 'custom',
        path: [env.webhookUrl ? 'webhookSecret' : 'webhookUrl'],
        message: 'set WAITLIST_WEBHOOK_URL and WAITLIST_WEBHOOK_SECRET together, or neither',
      })
    }
    const problem = env.webhookUrl && webhookUrlProblem(new URL(env.webhookUrl), env.embeddedDefaults)
    if (problem) context.addIssue({ code: 'custom', path: ['webhookUrl'], message: problem })
  })

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/**
 * Why a webhook address is refused, or null: https only, since the body names people; plain http
 * only to this machine (a test receiver) and only in a local run, so a deployed build can never be
 * left pointing at a local stand-in.
 */
export function webhookUrlProblem(url: URL, localRun: boolean): string | null {
  if (url.protocol === 'https:') return null
  if (url.protocol !== 'http:') return 'must be an https:// URL'
  if (!LOOPBACK.test(url.hostname)) return 'must be https:// (plain http only to localhost, in a local run)'
  return localRun ? null : 'must be https:// in a deployed build (http://localhost is for local runs only)'
}

/** Standard Webhooks' secret format: `whsec_` and base64 of the key, here at least 24 bytes (192 bits). */
export function webhookSecretValid(secret: string): boolean {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : ''
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return false
  return atob(encoded).length >= 24
}

export type ServerEnv = z.infer<typeof serverSchema>

const SERVER_NAMES: Record<keyof ServerEnv, string> = {
  embeddedDefaults: 'EMBEDDED_DEFAULTS',
  contentSeedPath: 'CONTENT_SEED_PATH',
  contentRevalidateSeconds: 'CONTENT_REVALIDATE_SECONDS',
  leaderboardRefreshSeconds: 'LEADERBOARD_REFRESH_SECONDS',
  sanityApiHost: 'SANITY_API_HOST',
  sanityReadToken: 'SANITY_API_READ_TOKEN',
  revalidateSecret: 'SANITY_REVALIDATE_SECRET',
  sampleContent: 'SAMPLE_CONTENT',
  supabaseServiceRoleKey: 'SUPABASE_SERVICE_ROLE_KEY',
  outboxSecret: 'OUTBOX_DISPATCH_SECRET',
  smtpUrl: 'SMTP_URL',
  emailFrom: 'EMAIL_FROM',
  slackWebhookUrl: 'SLACK_WAITLIST_WEBHOOK_URL',
  slackIncludeEmail: 'SLACK_INCLUDE_EMAIL',
  invitationRedeemSecret: 'INVITATION_REDEEM_SECRET',
  webhookUrl: 'WAITLIST_WEBHOOK_URL',
  webhookSecret: 'WAITLIST_WEBHOOK_SECRET',
  redisUrl: 'REDIS_URL',
  resendWebhookSecret: 'RESEND_WEBHOOK_SECRET',
  postmarkWebhookUser: 'POSTMARK_WEBHOOK_USER',
  postmarkWebhookPassword: 'POSTMARK_WEBHOOK_PASSWORD',
  sesSnsTopicArn: 'SES_SNS_TOPIC_ARN',
}

// The last settings validated, by their values (serverEnv).
let lastServerEnv: { key: string; env: ServerEnv } | undefined

/**
 * Embedded defaults (seed content, local waitlist database) are for a developer's machine:
 * always in `next dev` and tests, and in a production build only when asked for with
 * EMBEDDED_DEFAULTS=true (what `npm run preview` does). A deployed build never gets them
 * by accident.
 */
export function serverEnv(source: NodeJS.ProcessEnv = process.env): ServerEnv {
  const embeddedDefaults = source.EMBEDDED_DEFAULTS === 'true' || source.NODE_ENV !== 'production'
  const values = {
    embeddedDefaults,
    contentSeedPath: source.CONTENT_SEED_PATH || undefined,
    contentRevalidateSeconds: source.CONTENT_REVALIDATE_SECONDS || undefined,
    leaderboardRefreshSeconds: source.LEADERBOARD_REFRESH_SECONDS || undefined,
    sanityApiHost: source.SANITY_API_HOST,
    sanityReadToken: source.SANITY_API_READ_TOKEN,
    revalidateSecret: source.SANITY_REVALIDATE_SECRET,
    sampleContent: source.SAMPLE_CONTENT || (embeddedDefaults ? 'show' : 'hide'),
    supabaseServiceRoleKey: source.SUPABASE_SERVICE_ROLE_KEY,
    outboxSecret: source.OUTBOX_DISPATCH_SECRET,
    smtpUrl: source.SMTP_URL,
    emailFrom: source.EMAIL_FROM,
    slackWebhookUrl: source.SLACK_WAITLIST_WEBHOOK_URL,
    slackIncludeEmail: source.SLACK_INCLUDE_EMAIL === 'true',
    invitationRedeemSecret: source.INVITATION_REDEEM_SECRET,
    webhookUrl: source.WAITLIST_WEBHOOK_URL,
    webhookSecret: source.WAITLIST_WEBHOOK_SECRET,
    redisUrl: source.REDIS_URL,
    resendWebhookSecret: source.RESEND_WEBHOOK_SECRET,
    postmarkWebhookUser: source.POSTMARK_WEBHOOK_USER,
    postmarkWebhookPassword: source.POSTMARK_WEBHOOK_PASSWORD,
    sesSnsTopicArn: source.SES_SNS_TOPIC_ARN,
  }
  // The proxy reads these settings twice a page request; validating them anew each time was most of
  // its own time under load (docs/bench.md, "The server's own cost"). Same values, same answer.
  const key = JSON.stringify(values)
  if (lastServerEnv?.key === key) return lastServerEnv.env
  const env = parse(serverSchema, values, SERVER_NAMES)
  lastServerEnv = { key, env }
  return env
}

export class MissingConfigurationError extends Error {
  override name = 'MissingConfigurationError'
}

/**
 * Called at build (by the content layer) and at server start (instrumentation): a deployed
 * site must name its Sanity project and its Supabase project.
 */
export function assertDeployableConfiguration(pub: PublicEnv = publicEnv, server: ServerEnv = serverEnv()): void {
  if (server.embeddedDefaults) return
  const missing: string[] = []
  if (!pub.sanityProjectId) missing.push('NEXT_PUBLIC_SANITY_PROJECT_ID (the Sanity project that holds the content)')
  if (!pub.supabaseUrl) missing.push('NEXT_PUBLIC_SUPABASE_URL (the Supabase project that stores the waitlist)')
  if (!pub.supabaseAnonKey) missing.push('NEXT_PUBLIC_SUPABASE_ANON_KEY (its public anon key)')
  if (missing.length === 0) return
  throw new MissingConfigurationError(
    `This production build has no embedded defaults, and these settings are missing:\n  - ${missing.join('\n  - ')}\n` +
      'Set them (see README, "Configuration"), or run `npm run preview` to serve the site locally on the seed content and the local waitlist database.',
  )
}

/** Where the waitlist form inserts: the Supabase project, or locally the embedded double. */
export function waitlistBackend(pub: PublicEnv = publicEnv): { url: string; anonKey: string } {
  if (!pub.supabaseUrl || !pub.supabaseAnonKey) {
    throw new MissingConfigurationError(
      'NEXT_PUBLIC_SUPABASE_URL and NEXT_PUBLIC_SUPABASE_ANON_KEY are not set, so the waitlist form has nowhere to save. ' +
        'Run the site with `npm run dev` or `npm run preview` (they start the local waitlist database), or set both (see README).',
    )
  }
  return { url: pub.supabaseUrl, anonKey: pub.supabaseAnonKey }
}

const posthogQuerySchema = z.object({
  personalApiKey: optional.pipe(
    z
      .string()
      .regex(/^phx_[A-Za-z0-9_-]{20,}$/, 'must be a PostHog personal API key (phx_…)')
      .optional(),
  ),
  projectId: optional.pipe(
    z
      .string()
      .regex(/^\d{1,12}$/, 'must be the PostHog project id (digits)')
      .optional(),
  ),
})

/**
 * PostHog's query API, for the founders' console's experiment participants (owner side only,
 * never the site or a browser): both set, or none, else the console fails at start.
 */
export function posthogQueryEnv(source: Record<string, string | undefined> = process.env): { personalApiKey: string; projectId: string } | null {
  const names = { personalApiKey: 'POSTHOG_PERSONAL_API_KEY', projectId: 'POSTHOG_PROJECT_ID' }
  const { personalApiKey, projectId } = parse(
    posthogQuerySchema,
    { personalApiKey: source.POSTHOG_PERSONAL_API_KEY, projectId: source.POSTHOG_PROJECT_ID },
    names,
  )
  if (personalApiKey && projectId) return { personalApiKey, projectId }
  if (personalApiKey || projectId)
    throw new Error(
      `Invalid environment configuration:\n  ${personalApiKey ? names.projectId : names.personalApiKey}: needed with ${personalApiKey ? names.personalApiKey : names.projectId}\nSee the README's configuration table.`,
    )
  return null
}
