import { portableTextToMarkdown } from '@portabletext/markdown'
import { stegaClean } from '@sanity/client/stega'
import type { PostBody, RichTextBody } from '@/sanity/content'
import { sanityImageAttributes, type ImageValue } from '@/lib/content/image'
import { pagePath } from '@/lib/content/paths'
import { publicEnv } from '@/lib/env'
import { absoluteUrl, blocks, codeBlock, fenceFor, image, quote, text } from '@/lib/markdown/markdown'

// The rich text of a page or a post as its Markdown twin carries it, through the field's
// converter: headings, lists, emphasis and links as Markdown; code fenced in its language; images
// as their alternative text and address; a callout as a quotation. The converter escapes the text
// itself. Only what it would pass through as written is replaced here: a link to anything but
// http(s) or a page of the site, HTML (underline), and block types the site does not know.

type Body = RichTextBody | PostBody

/** A run of inline code: the fence is longer than any run of backticks inside it. */
function inlineCode(code: string): string {
  const fence = fenceFor(code, 1)
  const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : ''
  return `${fence}${pad}${code.replace(/\s+/g, ' ')}${pad}${fence}`
}

/** A twin's rich text: `language` is the page's, for links to pages without a language of their own. */
export function richTextMarkdown(body: Body, { siteUrl, language }: { siteUrl: string; language: string }): string {
  const linked = (children: string | undefined, href: string | null) => {
    const url = absoluteUrl(href, siteUrl)
    return url ? `[${children ?? ''}](${url})` : (children ?? '')
  }
  return portableTextToMarkdown(stegaClean(body) as Parameters<typeof portableTextToMarkdown>[0], {
    marks: {
      link: ({ children, value }) => linked(children, typeof value?.href === 'string' ? value.href : null),
      pageLink: ({ children, value }) => {
        const slug = typeof value?.slug === 'string' ? value.slug : null
        return slug ? linked(children, pagePath(slug, typeof value?.language === 'string' ? value.language : language)) : (children ?? '')
      },
      code: ({ text: code }) => inlineCode(code ?? ''),
      underline: ({ children }) => children ?? '',
    },
    types: {
      code: ({ value }) =>
        typeof value.code === 'string' && value.code ? codeBlock(value.code, typeof value.language === 'string' ? value.language : null) : '',
      image: ({ value }) => {
        const attributes = sanityImageAttributes(value as ImageValue, { projectId: publicEnv.sanityProjectId, dataset: publicEnv.sanityDataset })
        return blocks(image(String(value.alt ?? ''), attributes?.src, siteUrl), text(typeof value.caption === 'string' ? value.caption : null))
      },
      callout: ({ value }) => quote(typeof value.text === 'string' ? value.text : null),
      // The converter writes these as they are stored: raw HTML, or a table no rich text here has.
      html: () => '',
      table: () => '',
    },
    unknownType: () => '',
    unknownMark: ({ children }) => children ?? '',
  }).trim()
}
