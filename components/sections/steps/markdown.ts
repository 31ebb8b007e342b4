import { blocks, list, text, titled } from '@/lib/markdown/markdown'
import type { SectionMarkdown } from '../markdown-types'

/** The steps as a numbered list, each its title in bold and its text. */
export const stepsMarkdown: SectionMarkdown<'stepsSection'> = (section, level) =>
  blocks(
    titled(section, level),
    list(
      section.steps.map((step) => [`**${text(step.title)}**`, text(step.text, 'lines')].filter((part) => part !== '****').join('  \n')),
      true,
    ),
  )
