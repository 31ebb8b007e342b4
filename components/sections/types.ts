import type { SectionOf, SectionType, SiteSettings } from '@/sanity/content'
import type { StartTrialLocation } from '@/components/analytics/events'

/** What every section may need besides its own content. */
export type SectionContext = {
  settings: SiteSettings
  /** Which start_free_trial_click location the closing call to action reports. */
  ctaLocation: Extract<StartTrialLocation, 'cta' | 'about_cta'>
}

export type SectionProps<T extends SectionType> = {
  section: SectionOf<T>
  /** A unique id for the section's heading (its aria-labelledby). */
  headingId: string
  /** 1 for the section that gives the page its one h1 (the first hero or page header), else 2. */
  titleLevel: 1 | 2
  context: SectionContext
}
