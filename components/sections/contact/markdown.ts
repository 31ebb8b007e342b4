import { blocks, link, list, text, titled } from '@/lib/markdown/markdown'
import type { SectionMarkdown } from '../markdown-types'

// The addresses as words (a twin links to web pages only), the profiles as links.
export const contactMarkdown: SectionMarkdown<'contactSection'> = (section, level, { settings, siteUrl }) => {
  const { contact } = settings
  return blocks(
    titled(section, level),
    list([
      text(`${section.generalEmailLabel}: ${contact.generalEmail}`),
      text(`${section.locationLabel}: ${contact.location}`),
      text(`${section.supportEmailLabel}: ${contact.supportEmail}`),
      link('X (Twitter)', contact.twitterUrl, siteUrl),
      link('LinkedIn', contact.linkedinUrl, siteUrl),
    ]),
  )
}
