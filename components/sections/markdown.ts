import type { Section, SectionType } from '@/sanity/content'
import { blocks, heading } from '@/lib/markdown/markdown'
import { cardGridMarkdown } from './card-grid/markdown'
import { contactMarkdown } from './contact/markdown'
import { ctaMarkdown } from './cta/markdown'
import { faqMarkdown } from './faq/markdown'
import { heroMarkdown } from './hero/markdown'
import { logoStripMarkdown } from './logo-strip/markdown'
import type { MarkdownContext, SectionMarkdown } from './markdown-types'
import { pageHeaderMarkdown } from './page-header/markdown'
import { mainHeadingIndex } from './page-builder'
import { pricingMarkdown } from './pricing/markdown'
import { richTextSectionMarkdown } from './rich-text/section-markdown'
import { statementMarkdown } from './statement/markdown'
import { stepsMarkdown } from './steps/markdown'
import { testimonialSectionMarkdown } from './testimonial/markdown'
import { textColumnsMarkdown } from './text-columns/markdown'

/**
 * The Markdown of each section type, kept beside its component. Apart from the components'
 * registry (registry.ts), which a twin does not need: a twin's route loads no React component.
 * TypeScript refuses a section type without one.
 */
export const SECTION_MARKDOWN: { [T in SectionType]: SectionMarkdown<T> } = {
  heroSection: heroMarkdown,
  pageHeaderSection: pageHeaderMarkdown,
  richTextSection: richTextSectionMarkdown,
  logoStripSection: logoStripMarkdown,
  cardGridSection: cardGridMarkdown,
  pricingSection: pricingMarkdown,
  testimonialSection: testimonialSectionMarkdown,
  faqSection: faqMarkdown,
  textColumnsSection: textColumnsMarkdown,
  statementSection: statementMarkdown,
  contactSection: contactMarkdown,
  ctaSection: ctaMarkdown,
  stepsSection: stepsMarkdown,
}

/**
 * A page's sections as Markdown, top to bottom, with the page's one `# ` heading where the page
 * draws its h1: the first hero or page header, else the page's title above everything.
 */
export function sectionsMarkdown(title: string, sections: Section[], context: MarkdownContext): string {
  const main = mainHeadingIndex(sections)
  const drawn = sections.map((section, index) => {
    const render = SECTION_MARKDOWN[section._type] as SectionMarkdown<typeof section._type> | undefined
    return render ? render(section, index === main ? 1 : 2, context) : ''
  })
  return blocks(main === -1 ? heading(1, title) : '', ...drawn)
}
