import { blocks, heading, link, list, text } from '@/lib/markdown/markdown'

/** One line of /llms.txt: a link and, after a colon, what is there. */
export type LlmsLink = { title: string; url: string; note?: string | null }

export type LlmsSection = { heading: string; links: LlmsLink[] }

/**
 * /llms.txt in the llmstxt.org format: the site's name as the H1, its summary as one blockquote
 * paragraph, then a section ("## …") per list of links, one `- [title](url): note` line each.
 * Every text is plain text made safe (lib/markdown): a title cannot open a heading, a note cannot
 * start a new line, and only http(s) addresses are links. A section without links is left out.
 */
export function buildLlmsTxt({
  siteName,
  summary,
  sections,
  siteUrl,
}: {
  siteName: string
  summary: string
  sections: LlmsSection[]
  siteUrl: string
}): string {
  const quoted = text(summary)
  return `${blocks(
    heading(1, siteName),
    quoted ? `> ${quoted}` : '',
    ...sections
      .map((section) => ({ ...section, links: section.links.filter((item) => link(item.title, item.url, siteUrl).startsWith('[')) }))
      .filter((section) => section.links.length > 0)
      .map((section) =>
        blocks(
          heading(2, section.heading),
          list(
            section.links.map((item) => {
              const note = text(item.note)
              return `${link(item.title, item.url, siteUrl)}${note ? `: ${note}` : ''}`
            }),
          ),
        ),
      ),
  )}\n`
}
