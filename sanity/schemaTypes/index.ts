import { aboutPage } from './documents/aboutPage'
import { demoConversation } from './documents/demoConversation'
import { landingPage } from './documents/landingPage'
import { notFoundPage } from './documents/notFoundPage'
import { pricingTier } from './documents/pricingTier'
import { siteSettings } from './documents/siteSettings'
import { waitlistPage } from './documents/waitlistPage'
import { link } from './objects/link'
import { seo } from './objects/seo'

export const schemaTypes = [siteSettings, landingPage, aboutPage, waitlistPage, notFoundPage, pricingTier, demoConversation, link, seo]

/** One document each, edited in place: the Studio shows them as single entries, not lists. */
export const SINGLETONS = [
  { type: 'siteSettings', title: 'Site settings' },
  { type: 'landingPage', title: 'Landing page' },
  { type: 'aboutPage', title: 'About page' },
  { type: 'waitlistPage', title: 'Waitlist page' },
  { type: 'notFoundPage', title: 'Page not found (404)' },
] as const

export const SINGLETON_TYPES = new Set<string>(SINGLETONS.map((s) => s.type))
