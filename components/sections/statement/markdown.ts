import { sectionImage } from '@/lib/markdown/image'
import { blocks, heading, text } from '@/lib/markdown/markdown'
import type { SectionMarkdown } from '../markdown-types'

export const statementMarkdown: SectionMarkdown<'statementSection'> = (section, level, { settings, siteUrl }) =>
  blocks(
    heading(level, section.title),
    text(section.body, 'lines'),
    sectionImage(section.image, siteUrl),
    section.image?.isSample ? text(`(${settings.labels.sample})`) : '',
  )
