import { blocks, text, titled } from '@/lib/markdown/markdown'
import type { SectionMarkdown } from '../markdown-types'
import { formatDate } from './page-header'

export const pageHeaderMarkdown: SectionMarkdown<'pageHeaderSection'> = (section, level, { settings }) =>
  blocks(titled(section, level), section.lastUpdated ? text(`${settings.labels.lastUpdated} ${formatDate(section.lastUpdated, settings.language)}`) : '')
