import { cardGridProjection } from './card-grid/projection'
import { contactProjection } from './contact/projection'
import { ctaProjection } from './cta/projection'
import { faqProjection } from './faq/projection'
import { heroProjection } from './hero/projection'
import { logoStripProjection } from './logo-strip/projection'
import { pageHeaderProjection } from './page-header/projection'
import { pricingProjection } from './pricing/projection'
import { richTextProjection } from './rich-text/projection'
import { statementProjection } from './statement/projection'
import { stepsProjection } from './steps/projection'
import { testimonialProjection } from './testimonial/projection'
import { textColumnsProjection } from './text-columns/projection'

/**
 * A page's visible sections, each with the fields its component reads. Spelled out (not
 * joined from a list) so Sanity's typegen can follow it and type every section.
 */
export const sectionsProjection = /* groq */ `"sections": sections[hidden != true]{
  _key,
  _type,
  anchorId,
  ${heroProjection},
  ${pageHeaderProjection},
  ${richTextProjection},
  ${logoStripProjection},
  ${cardGridProjection},
  ${pricingProjection},
  ${testimonialProjection},
  ${faqProjection},
  ${textColumnsProjection},
  ${statementProjection},
  ${contactProjection},
  ${ctaProjection},
  ${stepsProjection}
}`
