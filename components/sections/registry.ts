import type { ComponentType } from 'react'
import type { SectionType } from '@/sanity/content'
import { CardGridSection } from './card-grid/card-grid-section'
import { ContactDetails } from './contact/contact'
import { ClosingCta } from './cta/cta'
import { Faq } from './faq/faq'
import { Hero } from './hero/hero'
import { LogoStrip } from './logo-strip/logo-strip'
import { PageHeader } from './page-header/page-header'
import { Pricing } from './pricing/pricing'
import { RichTextSection } from './rich-text/rich-text-section'
import { Steps } from './steps/steps'
import { Statement } from './statement/statement'
import { TestimonialSection } from './testimonial/testimonial'
import { TextColumns } from './text-columns/text-columns'
import type { SectionProps } from './types'

/** The component of each section type. TypeScript refuses a section type without one. */
export const SECTION_COMPONENTS: { [T in SectionType]: ComponentType<SectionProps<T>> } = {
  heroSection: Hero,
  pageHeaderSection: PageHeader,
  richTextSection: RichTextSection,
  logoStripSection: LogoStrip,
  cardGridSection: CardGridSection,
  pricingSection: Pricing,
  testimonialSection: TestimonialSection,
  faqSection: Faq,
  textColumnsSection: TextColumns,
  statementSection: Statement,
  contactSection: ContactDetails,
  ctaSection: ClosingCta,
  stepsSection: Steps,
}

/** The sections whose title can be the page's main heading: the first of them on a page gives its h1. */
export const PAGE_TITLE_SECTIONS: ReadonlySet<SectionType> = new Set<SectionType>(['heroSection', 'pageHeaderSection'])

/** The word a section's heading id starts from when it has no anchor id (hero-title, logos-title, cta-title, …). */
export const HEADING_ID_BASE: { [T in SectionType]: string } = {
  heroSection: 'hero',
  pageHeaderSection: 'page',
  richTextSection: 'contents',
  logoStripSection: 'logos',
  cardGridSection: 'cards',
  pricingSection: 'pricing',
  testimonialSection: 'testimonial',
  faqSection: 'faq',
  textColumnsSection: 'columns',
  statementSection: 'statement',
  contactSection: 'contact',
  ctaSection: 'cta',
  stepsSection: 'steps',
}
