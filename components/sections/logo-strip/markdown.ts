import { blocks, heading, list, text } from '@/lib/markdown/markdown'
import type { SectionMarkdown } from '../markdown-types'

// A logo is its name (the page's alternative text); sample logos keep their marker, as on the page.
export const logoStripMarkdown: SectionMarkdown<'logoStripSection'> = (logos, level, { settings }) =>
  blocks(heading(level, logos.title), list(logos.items.map((logo) => text(logo.isSample ? `${logo.name} (${settings.labels.sample})` : logo.name))))
