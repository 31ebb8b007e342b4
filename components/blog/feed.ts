import 'server-only'
import { toHTML, type PortableTextHtmlComponents } from '@portabletext/to-html'
import { stegaClean } from '@sanity/client/stega'
import { Feed } from 'feed'
import { highlightCode } from '@/components/sections/rich-text/highlight'
import { safeHref } from '@/components/sections/rich-text/rich-text'
import { sanityImageAttributes, type ImageValue } from '@/lib/content/image'
import type { BlogCopy, FeedPost, PostKind, SiteSettings } from '@/sanity/content'
import { feedPath, pagePath, postListPath } from '@/lib/content/paths'
import { languageTag, localizePath } from '@/lib/i18n/languages'
import { toPlainText, type PlainTextKind } from '@/lib/content/plain-text'
import { publicEnv } from '@/lib/env'

// The blog's and the changelog's RSS 2.0 feeds, each post with its whole text as HTML: feed
// readers show it without visiting the site. Links and images are absolute (a reader has no base
// address), and code blocks carry their colours inline, as on the page.
//
// Whatever the Studio let through, the feed stays XML with one title and one link per item.
// `feed` writes title, summary and body as CDATA through xml-js, which splits only the first
// "]]>" of a string, and writes the other texts as escaped text after turning every "&amp;" back
// into "&". So every string is prepared here: characters XML cannot carry removed; the title and
// summary are plain text, HTML-escaped (readers read both as HTML: "<b>" typed is shown, never
// applied), which leaves no ">" to end a CDATA section; the body's HTML has each "]]>" written
// "]]&gt;", the same text to an HTML reader; and "&" in plain texts is escaped once more for xml-js.

const absolute = (path: string) => new URL(path, publicEnv.siteUrl).toString()

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

// What XML 1.0 may carry, less the C1 controls it discourages; unpaired surrogates (code points of
// their own under the u flag) are outside every range.
const NOT_XML = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu
const xmlSafe = (text: string) => text.replace(NOT_XML, '')

/** A reader's plain text inside CDATA: shown as typed by a reader that renders it as HTML. */
const cdataText = (text: string | null | undefined, kind: PlainTextKind = 'line') =>
  escape(xmlSafe(toPlainText(stegaClean(text), kind)).replace(/\r\n?/g, '\n'))
/** A plain text that xml-js writes as an element's text. */
const elementText = (text: string | null | undefined) => xmlSafe(toPlainText(stegaClean(text))).replace(/&/g, '&amp;')
/** A body of HTML inside CDATA. */
const cdataHtml = (html: string) => xmlSafe(html).replaceAll(']]>', ']]&gt;')

/** Portable Text to HTML for a feed: the page's blocks, with absolute addresses and pre-rendered code. */
async function postHtml(post: FeedPost): Promise<string> {
  // toHTML is synchronous: the code blocks are highlighted first, by key.
  const code = new Map<string, string>()
  for (const block of post.body) {
    if (block._type === 'code' && block.code) code.set(block._key, await highlightCode(stegaClean(block.code), stegaClean(block.language)))
  }
  const components: Partial<PortableTextHtmlComponents> = {
    marks: {
      link: ({ children, value }) => {
        const href = safeHref(value?.href)
        return href ? `<a href="${escape(href)}">${children}</a>` : children
      },
      pageLink: ({ children, value }) => {
        const slug = stegaClean(value?.slug as string | undefined)
        const language = stegaClean(value?.language as string | undefined) ?? post.language
        return slug ? `<a href="${escape(absolute(pagePath(slug, language)))}">${children}</a>` : children
      },
    },
    types: {
      code: ({ value }) => code.get(value._key) ?? '',
      callout: ({ value }) => `<blockquote><p>${escape(String(value.text ?? ''))}</p></blockquote>`,
      image: ({ value }) => {
        const image = sanityImageAttributes(value as ImageValue, { projectId: publicEnv.sanityProjectId, dataset: publicEnv.sanityDataset })
        if (!image) return ''
        const caption = value.caption ? `<figcaption>${escape(String(value.caption))}</figcaption>` : ''
        return `<figure><img src="${escape(absolute(image.src))}" alt="${escape(String(value.alt ?? ''))}" width="${image.width}" height="${image.height}">${caption}</figure>`
      },
    },
  }
  return toHTML(post.body as never, { components, onMissingComponent: false })
}

/** The RSS 2.0 document of one kind of post (its newest, with their text). */
export async function buildFeed({
  kind,
  posts,
  copy,
  settings,
}: {
  kind: PostKind
  posts: FeedPost[]
  copy: BlogCopy
  settings: SiteSettings
}): Promise<string> {
  const changelog = kind === 'changelog'
  const { language } = copy
  const self = absolute(feedPath(kind, language))
  const feed = new Feed({
    id: self,
    title: elementText(`${changelog ? copy.changelogTitle : copy.title} | ${settings.siteName}`),
    description: elementText(changelog ? copy.changelogIntro : copy.intro),
    link: absolute(localizePath(changelog ? '/changelog' : '/blog', language)),
    language: languageTag(language),
    copyright: elementText(settings.footer.copyright),
    updated: posts[0] ? new Date(posts[0].updatedAt) : undefined,
    feedLinks: { rss: self },
    generator: false,
  })
  for (const post of posts) {
    feed.addItem({
      title: cdataText(post.title),
      id: absolute(post.path),
      link: absolute(post.path),
      date: new Date(post.publishedAt),
      description: cdataText(post.excerpt, 'lines'),
      content: cdataHtml(await postHtml(post)),
      author: post.authors.map((author) => ({ name: elementText(author.name) })),
      category: post.categories.map((category) => ({
        name: elementText(category.title),
        domain: absolute(postListPath({ category: category.slug, language })),
      })),
    })
  }
  return feed.rss2()
}
