import { localizePath } from '@/lib/i18n/languages'
import { blocks, link, titled } from '@/lib/markdown/markdown'
import { START_TRIAL_PATH } from '@/components/waitlist/start-trial-link'
import { testimonialMarkdown } from '../testimonial/markdown'
import type { SectionMarkdown } from '../markdown-types'

export const ctaMarkdown: SectionMarkdown<'ctaSection'> = (cta, level, { settings, siteUrl }) =>
  blocks(
    titled(cta, level),
    link(cta.primaryCtaLabel, localizePath(START_TRIAL_PATH, settings.language), siteUrl),
    cta.testimonial ? testimonialMarkdown(cta.testimonial, settings) : '',
  )
