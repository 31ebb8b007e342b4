import 'server-only'
import { formatDate } from '@/components/sections/page-header/page-header'
import { richTextMarkdown } from '@/components/sections/rich-text/markdown'
import { sectionsMarkdown } from '@/components/sections/markdown'
import type { BlogCopy, Post, SiteSettings } from '@/sanity/content'
import { getAboutPage, getBlogCopy, getLandingPage, getPage, getPost, getSiteSettings } from '@/sanity/content'
import { SLUG_PATTERN } from '@/lib/content/paths'
import { publicEnv } from '@/lib/env'
import { blocks, heading, text } from '@/lib/markdown/markdown'

/** A post's twin: its title, summary, byline and text, as its page reads (no lists or links around it). */
export function postMarkdown(post: Post, copy: BlogCopy | null, settings: SiteSettings, siteUrl: string): string {
  const authors = post.authors.map((author) => [author.name, author.role].filter(Boolean).join(', ')).join('; ')
  const byline = [authors && copy ? `${copy.labels.byline} ${authors}` : authors, formatDate(post.publishedAt.slice(0, 10), post.language)]
    .filter(Boolean)
    .join(' · ')
  return blocks(
    heading(1, post.title),
    text(post.excerpt, 'lines'),
    post.isSample ? text(settings.labels.sample) : '',
    text(byline),
    richTextMarkdown(post.body, { siteUrl, language: post.language }),
  )
}

/** A twin's text, and whether its page is hidden from search engines (then so is the twin). */
export type Twin = { markdown: string; noindex: boolean }

/**
 * The Markdown twin of the page at `path` in a language (the path within it: `/`, `/about`,
 * `/privacy`, `/blog/<slug>`), or null when no published page or post is there. The same getters
 * as the pages, so the same cache tags: a publish refreshes a twin with its page.
 */
export async function twinMarkdown(language: string, path: string): Promise<Twin | null> {
  const siteUrl = publicEnv.siteUrl
  const settings = await getSiteSettings(language)
  const segments = path.split('/').filter(Boolean)
  if (segments.length === 2 && segments[0] === 'blog' && SLUG_PATTERN.test(segments[1]!)) {
    const [post, copy] = await Promise.all([getPost(segments[1]!, language), getBlogCopy(language)])
    return post ? { markdown: postMarkdown(post, copy, settings, siteUrl), noindex: post.seo.noindex } : null
  }
  const page =
    path === '/'
      ? await getLandingPage(language)
      : path === '/about'
        ? await getAboutPage(language)
        : segments.length === 1 && SLUG_PATTERN.test(segments[0]!)
          ? await getPage(segments[0]!, language)
          : null
  return page ? { markdown: sectionsMarkdown(page.title, page.sections, { settings, siteUrl }), noindex: page.seo.noindex } : null
}
