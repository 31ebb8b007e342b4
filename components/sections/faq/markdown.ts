import { blocks, heading, text, titled } from '@/lib/markdown/markdown'
import type { SectionMarkdown } from '../markdown-types'

/** Each question a heading, its answer under it. */
export const faqMarkdown: SectionMarkdown<'faqSection'> = (faq, level) =>
  blocks(titled(faq, level), ...faq.items.map((item) => blocks(heading(level + 1, item.question), text(item.answer, 'lines'))))
