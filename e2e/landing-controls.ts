import type { Locator, Page } from '@playwright/test'
import { copy } from './seed-copy'

// The calls to action, each found where it sits (header, hero, closing section, footer) by the
// label the seed gives it: two places may share a label without a test finding the wrong one.
// Keyed by the `button_location` the analytics events name.

const nav = copy.settings.navigation
const hero = copy.section(copy.landing, 'heroSection')
const cta = copy.section(copy.landing, 'ctaSection')
const heroSection = (page: Page) => page.locator('section[aria-labelledby="hero-title"]')
const ctaSection = (page: Page) => page.locator('section[aria-labelledby="cta-title"]')

/** The buttons that open the demo, on the landing page. */
export const tryDemoButtons: Record<'navigation' | 'hero' | 'cta' | 'footer', (page: Page) => Locator> = {
  navigation: (page) => page.getByRole('banner').getByRole('button', { name: nav.tryDemoLabel }),
  hero: (page) => heroSection(page).getByRole('button', { name: hero.secondaryCtaLabel }),
  cta: (page) => ctaSection(page).getByRole('button', { name: cta.secondaryCtaLabel! }),
  footer: (page) => page.getByRole('contentinfo').getByRole('button', { name: copy.footerLabel((link) => link.kind === 'demo') }),
}

/** The links to the waitlist on the landing page (the header's is on every page). */
export const startTrialLinks: Record<'navigation' | 'hero' | 'cta', (page: Page) => Locator> = {
  navigation: (page) => page.getByRole('banner').getByRole('link', { name: nav.startTrialLabel }),
  hero: (page) => heroSection(page).getByRole('link', { name: hero.primaryCtaLabel }),
  cta: (page) => ctaSection(page).getByRole('link', { name: cta.primaryCtaLabel }),
}
