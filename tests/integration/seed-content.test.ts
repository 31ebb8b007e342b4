import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { assembleSeed, SEED_DATASET_PATH } from '@/tools/content/seed-assemble'
import { evaluateQuery, parseNdjson } from '@/sanity/seed/dataset'
import { contentTokens, toNotFoundPage, toSectionPage, toSiteSettings, toWaitlistPage } from '@/sanity/content/reshape'
import type { SectionOf, SectionPage, SectionType } from '@/sanity/content/types'
import { aboutPageQuery, landingPageQuery, notFoundPageQuery, siteSettingsQuery, waitlistPageQuery } from '@/sanity/queries'
import { schemaTypes } from '@/sanity/schemaTypes'
import { validateDocuments } from '@/sanity/validate-documents'

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'seed')
const query = <T>(q: string, language = 'en') => evaluateQuery(seed, q, { language }) as Promise<NonNullable<T>>

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

/** The sections of one kind on a page, in order. */
const sectionsOf = <T extends SectionType>(page: SectionPage, type: T) => page.sections.filter((section): section is SectionOf<T> => section._type === type)

describe('seed dataset', () => {
  it('is assembled from sanity/seed/documents (run `npm run content:seed` after editing them)', async () => {
    expect(readFileSync(SEED_DATASET_PATH, 'utf8')).toBe(await assembleSeed())
  })

  it('is NDJSON that `sanity dataset import` accepts: one document a line, unique ids, no dotted (private) ids', () => {
    const ids = seed.map((doc) => doc._id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]+$/)
  })

  it('satisfies every required field and length limit of the Studio schema', async () => {
    expect(await validateDocuments(schemaTypes as never, seed)).toEqual([])
  })

  it('the schema check itself catches broken documents', async () => {
    const broken = seed.map((doc) =>
      doc._id === 'notFoundPage'
        ? { ...doc, title: 'x'.repeat(61), homeLabel: undefined }
        : doc._id === 'pricingTier-pro'
          ? { ...doc, availability: 'soon' }
          : doc,
    )
    expect((await validateDocuments(schemaTypes as never, broken)).sort()).toEqual([
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
  const settings = toSiteSettings(rawSettings, 'en', 2026)
  const landing = toSectionPage(await query(landingPageQuery), contentTokens(rawSettings))
  const about = toSectionPage(await query(aboutPageQuery), contentTokens(rawSettings))
  const [pricing] = sectionsOf(landing, 'pricingSection')
  const [faq] = sectionsOf(landing, 'faqSection')
  const [cta] = sectionsOf(landing, 'ctaSection')
  const [logos] = sectionsOf(landing, 'logoStripSection')
  const waitlist = toWaitlistPage(await query(waitlistPageQuery), rawSettings.usageClaim)
  const notFound = toNotFoundPage(await query(notFoundPageQuery))

  it('return complete data for every page', () => {
    for (const page of [settings, landing, about, waitlist, notFound]) expect(undefinedPaths(page)).toEqual([])
  })

  it('carry the spec copy of the navigation and footer', () => {
    const strings = allStrings(settings)
    for (const text of [
      'Resources',
      'About',
      'Try Demo',
      'Sign In',
      'Start Free Trial',
      'All systems operational',
      'SOC 2 Type II',
      'GDPR Compliant',
      '256-bit SSL',
    ]) {
      expect(strings).toContain(text)
    }
    expect(settings.footer.legalLinks.map((l) => l.kind === 'internal' && l.href)).toEqual(['/privacy', '/terms', '/cookies', '/gdpr'])
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
    const [starter, pro] = pricing!.tiers
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
    expect(faq!.items.some((item) => /upgrade, downgrade or cancel/.test(item.answer) && /dashboard/.test(item.answer))).toBe(true)
  })

  it('marks the testimonial and logos as sample content', () => {
    expect(cta!.testimonial?.isSample).toBe(true)
    expect(logos!.items.every((logo) => logo.isSample)).toBe(true)
  })

  it('carries the about, waitlist and 404 copy of the spec', () => {
    expect(about.sections.map((section) => section._type)).toEqual([
      'pageHeaderSection',
      'textColumnsSection',
      'cardGridSection',
      'statementSection',
      'contactSection',
      'ctaSection',
    ])
    const [header] = sectionsOf(about, 'pageHeaderSection')
    expect(header!.title).toBe('We make user research effortless')
    expect(sectionsOf(about, 'textColumnsSection')[0]!.columns.map((c) => c.title)).toEqual(['Our Mission', 'Our Vision'])
    expect(sectionsOf(about, 'cardGridSection')[0]!.items).toHaveLength(3)
    expect(sectionsOf(about, 'statementSection')[0]!.title).toBe('The Team')
    expect(sectionsOf(about, 'contactSection')[0]!.title).toBe('Get in Touch')
    expect(sectionsOf(about, 'ctaSection')[0]!.primaryCtaLabel).toBe('Start Free Trial')
    expect(waitlist.form).toMatchObject({
      title: 'Get Early Access',
      nameLabel: 'Your Name *',
      companyLabel: 'Project or Company',
      emailLabel: 'Work Email *',
      submitLabel: 'Join Waitlist',
      submittingLabel: 'Joining...',
      privacyNote: 'We respect your privacy. No spam, ever.',
      privacyLink: { key: 'Privacy Policy', label: 'Privacy Policy', kind: 'internal', href: '/privacy' },
    })
    expect(waitlist.benefits).toHaveLength(4)
    expect(waitlist.confirmation).toMatchObject({ title: "You're on the list!", nextStepsTitle: 'What happens next?', backLabel: 'Back to Home' })
    expect(waitlist.messages).toEqual({
      success: "You're on the list! Check your e-mail to confirm your address.",
      duplicate: "You're already on the waitlist! We'll be in touch soon.",
      backendError: 'Something went wrong. Please try again.',
      failure: 'Something went wrong. Please try again.',
      rateLimited: 'Too many attempts. Please wait a minute and try again.',
      automated: 'This sign-up looked automated, so it was not saved. Please check your details and press Join Waitlist again.',
      questionsChanged: 'The questions on this form have changed since you opened it. Please reload the page and sign up again.',
    })
    expect(notFound).toMatchObject({ title: 'Oops! Page not found', homeLabel: 'Return to Home' })
  })
})

describe('the cookie policy', () => {
  it('names every key the site’s own code stores in the browser', async () => {
    // A new key in the code without a line in the policy fails here: the policy must stay true.
    const { CONSENT_STORAGE_KEY } = await import('@/components/analytics/consent')
    const { OUTBOX_STORAGE_KEY } = await import('@/components/analytics/client')
    const { ANNOUNCEMENT_STORAGE_KEY } = await import('@/components/site/announcement/announcement-bar')
    const { SOURCE_STORAGE_KEY } = await import('@/components/waitlist/source')
    const policy = JSON.stringify(seed.find((doc) => doc._id === 'page-cookies'))
    for (const key of [CONSENT_STORAGE_KEY, OUTBOX_STORAGE_KEY, ANNOUNCEMENT_STORAGE_KEY, SOURCE_STORAGE_KEY]) expect(policy).toContain(`"text":"${key}"`)
  })
})
