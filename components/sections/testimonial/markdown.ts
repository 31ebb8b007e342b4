import type { SectionOf, SiteSettings } from '@/sanity/content'
import { blocks, quote, text } from '@/lib/markdown/markdown'
import type { SectionMarkdown } from '../markdown-types'

/** A quotation and who said it (marked when it is sample content, as on the page). */
export function testimonialMarkdown(
  testimonial: Pick<SectionOf<'testimonialSection'>, 'quote' | 'author' | 'role' | 'isSample'>,
  settings: SiteSettings,
): string {
  const who = [testimonial.author, testimonial.role].filter(Boolean).join(', ')
  return blocks(quote(testimonial.quote), text(`— ${who}${testimonial.isSample ? ` (${settings.labels.sample})` : ''}`))
}

export const testimonialSectionMarkdown: SectionMarkdown<'testimonialSection'> = (section, _level, { settings }) => testimonialMarkdown(section, settings)
