import { blocks, heading, text } from '@/lib/markdown/markdown'
import type { SectionMarkdown } from '../markdown-types'

export const textColumnsMarkdown: SectionMarkdown<'textColumnsSection'> = (section, level) =>
  blocks(...section.columns.map((column) => blocks(heading(level, column.title), text(column.body, 'lines'))))
