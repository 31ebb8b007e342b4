import { defineArrayMember, defineField } from 'sanity'
import { stringField } from '../schemaTypes/objects/fields'
import { cardGridSection } from './card-grid/schema'
import { contactSection } from './contact/schema'
import { ctaSection } from './cta/schema'
import { faqSection } from './faq/schema'
import { heroSection } from './hero/schema'
import { logoStripSection } from './logo-strip/schema'
import { pageHeaderSection } from './page-header/schema'
import { pricingSection } from './pricing/schema'
import { richTextSection } from './rich-text/schema'
import { statementSection } from './statement/schema'
import { stepsSection } from './steps/schema'
import { testimonialSection } from './testimonial/schema'
import { textColumnsSection } from './text-columns/schema'

/** Every section a page can be built from, in the order the Studio's "Add item" menu lists them. */
export const SECTION_SCHEMAS = [
  heroSection,
  pageHeaderSection,
  richTextSection,
  logoStripSection,
  cardGridSection,
  stepsSection,
  pricingSection,
  testimonialSection,
  faqSection,
  textColumnsSection,
  statementSection,
  contactSection,
  ctaSection,
]

/**
 * A page's name. It is the page's main heading (h1) when none of its sections gives one (a hero or
 * a page header), so every page has exactly one whatever sections a marketer chooses.
 */
export const pageTitleField = (description: string) =>
  stringField({
    name: 'title',
    title: 'Title',
    description: `${description} Shown as the page’s main heading when none of its sections is a hero or a page header.`,
    max: 80,
  })

/** Anchor ids must be unique on a page, or a link like /#pricing would jump to the wrong place. */
export function duplicateAnchorProblem(sections: { anchorId?: string }[] | undefined): true | string {
  const ids = (sections ?? []).map((section) => section.anchorId).filter((id): id is string => Boolean(id))
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index)
  return duplicate ? `Two sections use the anchor id "${duplicate}"` : true
}

/** The page builder: sections a marketer adds, reorders (drag and drop), duplicates, hides and removes. */
export function sectionsField() {
  return defineField({
    name: 'sections',
    title: 'Sections',
    description: 'Top to bottom as on the page. Drag to reorder; use a section’s menu to duplicate or remove it.',
    type: 'array',
    of: SECTION_SCHEMAS.map((section) => defineArrayMember({ type: section.name })),
    validation: (rule) =>
      rule
        .required()
        .min(1)
        .custom((value) => duplicateAnchorProblem(value as { anchorId?: string }[] | undefined)),
  })
}
