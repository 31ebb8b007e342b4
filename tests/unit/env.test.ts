import { describe, expect, it } from 'vitest'
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
