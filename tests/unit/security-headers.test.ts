import { describe, expect, it } from 'vitest'
import { securityHeaders, siteContentSecurityPolicy, studioContentSecurityPolicy } from '@/lib/security-headers'

describe('siteContentSecurityPolicy', () => {
  it('allows itself, the Supabase project, and Sanity images, and nothing else', () => {
    const csp = siteContentSecurityPolicy({ supabaseUrl: 'https://abc.supabase.co/', https: true })
    expect(csp).toContain("connect-src 'self' https://abc.supabase.co;")
    expect(csp).toContain("img-src 'self' data: blob: https://cdn.sanity.io;")
    expect(csp).toContain("script-src 'self' 'unsafe-inline';")
    expect(csp).toContain("frame-ancestors 'self'")
    expect(csp).toContain('upgrade-insecure-requests')
    expect(csp).not.toMatch(/posthog|\*/)
  })

  it('does not upgrade requests on a plain-http local site, and ignores a malformed Supabase URL', () => {
    const csp = siteContentSecurityPolicy({ supabaseUrl: 'not a url', https: false })
    expect(csp).not.toContain('upgrade-insecure-requests')
    expect(csp).toContain("connect-src 'self';")
  })

  it('trusts the product widget origin only when the deployment names it', () => {
    const csp = siteContentSecurityPolicy({ https: true, productWidgetOrigin: 'https://app.example.com/widget.js' })
    expect(csp).toContain("script-src 'self' 'unsafe-inline' https://app.example.com;")
    expect(csp).toContain("frame-src 'self' https://app.example.com;")
    expect(siteContentSecurityPolicy({ https: true })).toContain("script-src 'self' 'unsafe-inline';")
  })
})

describe('studioContentSecurityPolicy', () => {
  it('lets the Studio reach Sanity and nobody frame it', () => {
    const csp = studioContentSecurityPolicy()
    expect(csp).toContain("connect-src 'self' https://*.sanity.io wss://*.sanity.io")
    expect(csp).toContain("frame-ancestors 'none'")
  })
})

describe('securityHeaders', () => {
  it('gives the Studio its own policy and every other path the site policy', () => {
    const rules = securityHeaders({ supabaseUrl: 'http://127.0.0.1:54321', siteUrl: 'http://localhost:3000' })
    const site = new RegExp(`^${rules[1]!.source.replace('/(', '/(')}$`)
    for (const path of ['/', '/about', '/waitlist', '/anything/else', '/studios']) expect(site.test(path), path).toBe(true)
    for (const path of ['/studio', '/studio/structure']) expect(site.test(path), path).toBe(false)
  })
})
