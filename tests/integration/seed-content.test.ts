import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { evaluateQuery, parseNdjson } from '@/lib/content/seed-dataset'
import { toAboutPage, toLandingPage, toNotFoundPage, toSiteSettings, toWaitlistPage } from '@/lib/content/reshape'
import { aboutPageQuery, landingPageQuery, notFoundPageQuery, siteSettingsQuery, waitlistPageQuery } from '@/sanity/queries'
import { schemaTypes } from '@/sanity/schemaTypes'
import { validateDocuments } from '@/sanity/validate-documents'

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'seed')
const query = <T>(q: string) => evaluateQuery(seed, q) as Promise<NonNullable<T>>

function allStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(allStrings)
  if (value && typeof value === 'object') return Object.values(value).flatMap(allStrings)
  return []
}

function undefinedPaths(value: unknown, path = ''): string[] {
  if (value === undefined) return [path]
  if (Array.isArray(value)) return value.flatMap((item, i) => undefinedPaths(item, `${path}[${i}]`))
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => undefinedPaths(v, `${path}.${k}`))
  return []
}

describe('seed dataset', () => {
  it('is NDJSON that `sanity dataset import` accepts: one document a line, unique ids, no dotted (private) ids', () => {
    const ids = seed.map((doc) => doc._id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]+$/)
  })

  it('satisfies every required field and length limit of the Studio schema', () => {
    expect(validateDocuments(schemaTypes as never, seed)).toEqual([])
  })

  it('the schema check itself catches broken documents', () => {
    const broken = seed.map((doc) =>
      doc._id === 'notFoundPage' ? { ...doc, title: 'x'.repeat(61), homeLabel: undefined } : doc._id === 'pricingTier-pro' ? { ...doc, availability: 'soon' } : doc,
    )
    expect(validateDocuments(schemaTypes as never, broken).sort()).toEqual([
      'notFoundPage.homeLabel: required',
      'notFoundPage.title: longer than 60',
      'pricingTier-pro.availability: "soon" is not one of available, comingSoon',
    ])
  })

  it('has one document for each single page', () => {
    for (const id of ['siteSettings', 'landingPage', 'aboutPage', 'waitlistPage', 'notFoundPage']) {
      expect(seed.filter((doc) => doc._id === id)).toHaveLength(1)
    }
  })
})

describe('page queries over the seed (groq-js)', async () => {
  const rawSettings = await query<import('@/sanity/types.generated').SiteSettingsQueryResult>(siteSettingsQuery)
  const settings = toSiteSettings(rawSettings, 2026)
  const landing = toLandingPage(await query(landingPageQuery), rawSettings.usageClaim)
  const about = toAboutPage(await query(aboutPageQuery), rawSettings.usageClaim)
  const waitlist = toWaitlistPage(await query(waitlistPageQuery), rawSettings.usageClaim)
  const notFound = toNotFoundPage(await query(notFoundPageQuery))

  it('return complete data for every page', () => {
    for (const page of [settings, landing, about, waitlist, notFound]) expect(undefinedPaths(page)).toEqual([])
  })

  it('carry the spec copy of the navigation and footer', () => {
    const strings = allStrings(settings)
    for (const text of ['Resources', 'About', 'Try Demo', 'Sign In', 'Start Free Trial', 'All systems operational', 'SOC 2 Type II', 'GDPR Compliant', '256-bit SSL']) {
      expect(strings).toContain(text)
    }
    expect(settings.footer.columns.map((c) => [c.title, c.links.map((l) => l.label)])).toEqual([
      ['Product', ['Features', 'Pricing', 'Try Demo', 'Integrations']],
      ['Company', ['About', 'Blog', 'Careers', 'Contact']],
      ['Resources', ['Help Center', 'Documentation', 'API Reference', 'System Status']],
    ])
    expect(settings.footer.legalLinks.map((l) => l.label)).toEqual(['Privacy Policy', 'Terms of Service', 'Cookie Policy', 'GDPR'])
    expect(settings.navigation.links.map((l) => l.kind === 'internal' && l.href)).toEqual(['/#features', '/#pricing'])
    expect(settings.navigation.resources).toEqual([{ key: expect.any(String), label: 'About', kind: 'internal', href: '/about' }])
    expect(settings.footer.copyright).toBe('© 2026 Heardly. All rights reserved.')
  })

  it('prices the two tiers as the spec says', () => {
    const [starter, pro] = landing.pricing.tiers
    expect(starter).toMatchObject({ name: 'Starter', price: 'Free', available: false, ctaLabel: 'Coming Soon', insights: '10 insights per month' })
    expect(starter?.features).toEqual(['Basic AI conversations', 'Standard support'])
    expect(pro).toMatchObject({
      name: 'Pro Plan',
      price: '$29',
      interval: '/month',
      available: true,
      ctaLabel: 'Get Started - $29/month',
      terms: ['14-day free trial', 'No credit card required', 'Cancel anytime'],
      insights: 'Up to 1000 insights per month',
    })
    expect(pro?.features).toEqual(['AI-powered conversations', 'Real-time insights dashboard', 'Slack integration', 'Custom branding', 'Priority support'])
  })

  it('states the usage claim once, the same on every page', () => {
    const claims = [...allStrings(landing), ...allStrings(about)].filter((s) => /teams/.test(s) && /\d/.test(s))
    expect(claims.length).toBeGreaterThan(1)
    for (const claim of claims) expect(claim).toContain('500+ teams')
    expect(allStrings([landing, about, waitlist, settings]).some((s) => s.includes('{{usageClaim}}'))).toBe(false)
  })

  it('answers that a plan can be changed or cancelled from the dashboard', () => {
    expect(landing.faq.items.some((item) => /upgrade, downgrade or cancel/.test(item.answer) && /dashboard/.test(item.answer))).toBe(true)
  })

  it('marks the testimonial and logos as sample content', () => {
    expect(landing.cta.testimonial.isSample).toBe(true)
    expect(landing.logos.items.every((logo) => logo.isSample)).toBe(true)
  })

  it('carries the about, waitlist and 404 copy of the spec', () => {
    expect(about.hero.title).toBe('We make user research effortless')
    expect([about.mission.title, about.vision.title, about.values.title, about.team.title, about.contact.title]).toEqual([
      'Our Mission',
      'Our Vision',
      'Our Values',
      'The Team',
      'Get in Touch',
    ])
    expect(about.values.items).toHaveLength(3)
    expect(about.cta.buttonLabel).toBe('Start Free Trial')
    expect(waitlist.form).toMatchObject({
      title: 'Get Early Access',
      nameLabel: 'Your Name *',
      companyLabel: 'Project or Company',
      emailLabel: 'Work Email *',
      submitLabel: 'Join Waitlist',
      submittingLabel: 'Joining...',
      privacyNote: 'We respect your privacy. No spam, ever.',
    })
    expect(waitlist.benefits).toHaveLength(4)
    expect(waitlist.confirmation).toMatchObject({ title: "You're on the list!", nextStepsTitle: 'What happens next?', backLabel: 'Back to Home' })
    expect(waitlist.messages).toEqual({
      success: "You're on the list! We'll be in touch soon.",
      duplicate: "You're already on the waitlist! We'll be in touch soon.",
      backendError: 'Something went wrong. Please try again.',
      failure: 'Something went wrong. Please try again.',
      rateLimited: 'Too many attempts. Please wait a minute and try again.',
      automated: 'This sign-up looked automated, so it was not saved. Please check your details and press Join Waitlist again.',
    })
    expect(notFound).toMatchObject({ title: 'Oops! Page not found', homeLabel: 'Return to Home' })
  })
})
