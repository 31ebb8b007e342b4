import type { SectionMarkdown } from '../markdown-types'
import { richTextMarkdown } from './markdown'

export const richTextSectionMarkdown: SectionMarkdown<'richTextSection'> = (section, _level, { settings, siteUrl }) =>
  richTextMarkdown(section.body, { siteUrl, language: settings.language })
