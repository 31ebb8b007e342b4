import { blocks, heading, list, text } from '@/lib/markdown/markdown'
import type { SectionMarkdown } from '../markdown-types'

// A logo is its name (the page's alternative text). Sample logos keep their marker, as on the
// page: once on the heading when all of them are samples, else on each.
export const logoStripMarkdown: SectionMarkdown<'logoStripSection'> = (logos, level, { settings }) => {
  const marked = (words: string) => `${words} (${settings.labels.sample})`
  const allSample = logos.items.every((item) => item.isSample)
  return blocks(
    heading(level, allSample ? marked(logos.title) : logos.title),
    list(logos.items.map((logo) => text(logo.isSample && !allSample ? marked(logo.name) : logo.name))),
  )
}
