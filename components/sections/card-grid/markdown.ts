import { sectionImage } from '@/lib/markdown/image'
import { blocks, heading, text, titled } from '@/lib/markdown/markdown'
import type { SectionMarkdown } from '../markdown-types'

export const cardGridMarkdown: SectionMarkdown<'cardGridSection'> = (section, level, { siteUrl }) =>
  blocks(
    titled(section, level),
    ...section.items.map((item) =>
      blocks(heading(level + 1, item.title), text(item.description, 'lines'), section.layout === 'rows' ? sectionImage(item.image, siteUrl) : ''),
    ),
  )
