import { readFileSync } from 'node:fs'
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
  const directive = (name: string) =>
    studioContentSecurityPolicy()
      .split('; ')
      .find((part) => part.startsWith(`${name} `))

  it('lets the Studio reach Sanity and nobody frame it', () => {
    expect(directive('connect-src')).toBe("connect-src 'self' https://*.sanity.io wss://*.sanity.io https://sanity-cdn.com")
    expect(directive('frame-ancestors')).toBe("frame-ancestors 'none'")
  })

  it("loads the Studio's fonts from Sanity's design-system host", () => {
    expect(directive('font-src')).toBe("font-src 'self' data: https://design-system-static.sanity.io")
  })

  it('runs only our own scripts: no auto-update bridge from the CDN, and the Studio does not add it', () => {
    expect(directive('script-src')).toBe("script-src 'self' 'unsafe-inline'")
    expect(studioContentSecurityPolicy()).not.toContain('core.sanity-cdn.com')
    // next-sanity/studio's NextStudio renders <script src="https://core.sanity-cdn.com/bridge.js">.
    expect(readFileSync('components/studio/studio.tsx', 'utf8')).toMatch(/from 'next-sanity\/studio\/client-component'/)
  })

  it("leaves the site's own policy without any of the Studio's hosts", () => {
    expect(siteContentSecurityPolicy({ https: true })).not.toMatch(/sanity-cdn|design-system-static|\*\.sanity\.io/)
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
