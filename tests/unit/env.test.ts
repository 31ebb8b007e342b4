import { afterEach, describe, expect, it, vi } from 'vitest'
import { assertDeployableConfiguration, serverEnv, waitlistBackend, type PublicEnv } from '@/lib/env'

const configured: PublicEnv = {
  sanityProjectId: 'abc123',
  sanityDataset: 'production',
  sanityApiVersion: '2026-11-01',
  siteUrl: 'https://example.com',
  supabaseUrl: 'https://xyz.supabase.co',
  supabaseAnonKey: 'anon',
  posthogKey: undefined,
}

describe('embedded defaults', () => {
  it('are on in development and tests, off in a production build unless asked for', () => {
    expect(serverEnv({ NODE_ENV: 'development' }).embeddedDefaults).toBe(true)
    expect(serverEnv({ NODE_ENV: 'test' }).embeddedDefaults).toBe(true)
    expect(serverEnv({ NODE_ENV: 'production' }).embeddedDefaults).toBe(false)
    expect(serverEnv({ NODE_ENV: 'production', EMBEDDED_DEFAULTS: 'true' }).embeddedDefaults).toBe(true)
    expect(serverEnv({ NODE_ENV: 'production', EMBEDDED_DEFAULTS: '1' }).embeddedDefaults).toBe(false)
  })
})

describe('assertDeployableConfiguration', () => {
  const production = serverEnv({ NODE_ENV: 'production' })

  it('accepts a deployment with Sanity and Supabase configured', () => {
    expect(() => assertDeployableConfiguration(configured, production)).not.toThrow()
  })

  it.each([
    ['sanityProjectId', /NEXT_PUBLIC_SANITY_PROJECT_ID/],
    ['supabaseUrl', /NEXT_PUBLIC_SUPABASE_URL/],
    ['supabaseAnonKey', /NEXT_PUBLIC_SUPABASE_ANON_KEY/],
  ] as const)('names the missing %s in a deployment', (key, message) => {
    expect(() => assertDeployableConfiguration({ ...configured, [key]: undefined }, production)).toThrow(message)
  })

  it('lets a local run go without any of them', () => {
    const empty = { ...configured, sanityProjectId: undefined, supabaseUrl: undefined, supabaseAnonKey: undefined }
    expect(() => assertDeployableConfiguration(empty, serverEnv({ NODE_ENV: 'development' }))).not.toThrow()
  })
})

describe('waitlistBackend', () => {
  it('refuses to hand the form an empty backend', () => {
    expect(() => waitlistBackend({ ...configured, supabaseUrl: undefined })).toThrow(/nowhere to save/)
    expect(waitlistBackend(configured)).toEqual({ url: 'https://xyz.supabase.co', anonKey: 'anon' })
  })
})

describe('the outbox dispatcher settings', () => {
  it('reads SMTP, sender, Slack and the dispatch secret, all optional', () => {
    expect(serverEnv({ NODE_ENV: 'production' })).toMatchObject({
      smtpUrl: undefined,
      emailFrom: undefined,
      slackWebhookUrl: undefined,
      slackIncludeEmail: false,
      outboxSecret: undefined,
    })
    expect(
      serverEnv({
        NODE_ENV: 'production',
        SMTP_URL: 'smtps://resend:re_key@smtp.resend.com:465',
        EMAIL_FROM: 'waitlist@heardly.example',
        SLACK_WAITLIST_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/X',
        SLACK_INCLUDE_EMAIL: 'true',
        OUTBOX_DISPATCH_SECRET: 'x'.repeat(32),
      }),
    ).toMatchObject({
      smtpUrl: 'smtps://resend:re_key@smtp.resend.com:465',
      emailFrom: 'waitlist@heardly.example',
      slackIncludeEmail: true,
      outboxSecret: 'x'.repeat(32),
    })
  })

  it.each([
    [{ SMTP_URL: 'https://smtp.example.com' }, /SMTP_URL/],
    [{ EMAIL_FROM: 'Heardly <waitlist@heardly.example>' }, /EMAIL_FROM/],
    [{ SLACK_WAITLIST_WEBHOOK_URL: 'javascript:alert(1)' }, /SLACK_WAITLIST_WEBHOOK_URL/],
    [{ OUTBOX_DISPATCH_SECRET: 'short' }, /OUTBOX_DISPATCH_SECRET/],
  ])('refuses %j, naming the variable', (values, message) => {
    expect(() => serverEnv({ NODE_ENV: 'production', ...values })).toThrow(message)
  })
})

describe('bad configuration fails the build', () => {
  // next.config.ts imports lib/env, so `next build` stops on the first of these.
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.resetModules()
  })

  it.each([
    ['SMTP_URL', 'http://mail.example.com', /SMTP_URL: must start with smtp/],
    ['OUTBOX_DISPATCH_SECRET', 'short', /OUTBOX_DISPATCH_SECRET: must be at least 24/],
    ['PRODUCT_WIDGET_ORIGIN', 'widget.example.com', /PRODUCT_WIDGET_ORIGIN/],
    ['NEXT_PUBLIC_ANALYTICS_ALLOW_AUTOMATION', 'yes', /NEXT_PUBLIC_ANALYTICS_ALLOW_AUTOMATION/],
    ['NEXT_PUBLIC_SITE_URL', 'example.com', /NEXT_PUBLIC_SITE_URL/],
    ['REDIS_URL', 'https://cache.example.com', /REDIS_URL: must start with redis/],
    ['REDIS_URL', 'localhost:6379', /REDIS_URL/],
  ])('%s=%s stops next.config.ts', async (name, value, message) => {
    vi.resetModules()
    vi.stubEnv(name, value)
    await expect(import('@/next.config')).rejects.toThrow(message)
  })

  it('REDIS_URL sets the shared cache handler; without it, Next keeps its own cache', async () => {
    vi.resetModules()
    vi.stubEnv('REDIS_URL', '')
    expect((await import('@/next.config')).default).not.toHaveProperty('cacheHandler')
    vi.resetModules()
    vi.stubEnv('REDIS_URL', 'rediss://default:secret@cache.example.com:6380')
    const config = (await import('@/next.config')).default
    expect(config.cacheHandler).toMatch(/lib\/cache\/cache-handler\.mjs$/)
    expect(config.cacheMaxMemorySize).toBe(0)
  })

  it('a good configuration loads, and the browser part reads the same values', async () => {
    vi.resetModules()
    vi.stubEnv('NEXT_PUBLIC_POSTHOG_KEY', ' phc_test ')
    vi.stubEnv('NEXT_PUBLIC_ANALYTICS_ALLOW_AUTOMATION', 'true')
    await expect(import('@/next.config')).resolves.toBeDefined()
    const { publicEnv } = await import('@/lib/env')
    const { browserEnv } = await import('@/lib/env/browser')
    expect(browserEnv).toEqual({ posthogKey: publicEnv.posthogKey, analyticsAllowAutomation: publicEnv.analyticsAllowAutomation === 'true' })
    expect(browserEnv.posthogKey).toBe('phc_test')
  })
})

describe('serverEnv read on every request', () => {
  it('validates the same settings once, and anew when one changes (never an answer for other values)', () => {
    const first = serverEnv({ NODE_ENV: 'production', EMBEDDED_DEFAULTS: 'true', CONTENT_REVALIDATE_SECONDS: '60' })
    expect(serverEnv({ NODE_ENV: 'production', EMBEDDED_DEFAULTS: 'true', CONTENT_REVALIDATE_SECONDS: '60' })).toBe(first)
    const changed = serverEnv({ NODE_ENV: 'production', EMBEDDED_DEFAULTS: 'true', CONTENT_REVALIDATE_SECONDS: '5' })
    expect(changed.contentRevalidateSeconds).toBe(5)
    expect(serverEnv({ NODE_ENV: 'production', CONTENT_REVALIDATE_SECONDS: '5' }).embeddedDefaults).toBe(false)
    // A bad value still fails each time it is asked for, whatever was validated before.
    expect(() => serverEnv({ NODE_ENV: 'production', CONTENT_REVALIDATE_SECONDS: '-1' })).toThrow('CONTENT_REVALIDATE_SECONDS')
    expect(() => serverEnv({ NODE_ENV: 'production', CONTENT_REVALIDATE_SECONDS: '-1' })).toThrow('CONTENT_REVALIDATE_SECONDS')
    expect(serverEnv({ NODE_ENV: 'production', EMBEDDED_DEFAULTS: 'true', CONTENT_REVALIDATE_SECONDS: '60' })).toEqual(first)
  })
})
