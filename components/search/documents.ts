import 'server-only'
import { stegaClean } from '@sanity/client/stega'
import { getAboutPage, getBlogCopy, getLandingPage, getPage, getPageList, getPostSummaries, getPostTexts, getWaitlistPage } from '@/sanity/content'
import { changelogEntries } from '@/sanity/content/posts'
import { toPlainText } from '@/lib/content/plain-text'
import { localizePath } from '@/lib/i18n/languages'
import { buildSearchIndex, search, type SearchDocument, type SearchHit, type SearchIndex } from './search-index'
import { sectionsText } from './section-text'

/**
 * What the search finds in a language: the pages, posts and the changelog a visitor of that
 * language can open, read through the same getters as the pages themselves (so the same cache
 * tags, the same sample rule, the same translations). Pages and posts hidden from search engines
 * (`noindex`) are left out here too.
 */
export async function searchDocuments(language: string): Promise<SearchDocument[]> {
  const [landing, about, waitlist, blog, pageList, posts, texts] = await Promise.all([
    getLandingPage(language),
    getAboutPage(language),
    getWaitlistPage(language),
    getBlogCopy(language),
    getPageList(),
    getPostSummaries(language),
    getPostTexts(language),
  ])
  const pages = await Promise.all(
    pageList
      .filter((item) => item.language === language && !item.noindex)
      .map(async (item): Promise<SearchDocument | null> => {
        const page = await getPage(item.slug, language)
        return (
          page && {
            path: item.path,
            title: page.title,
            text: sectionsText(page.sections),
            kind: 'page',
          }
        )
      }),
  )
  const at = (path: string) => localizePath(path, language)
  const documents: (SearchDocument | null)[] = [
    landing && {
      path: at('/'),
      title: landing.title,
      text: sectionsText(landing.sections),
      kind: 'page',
    },
    about && {
      path: at('/about'),
      title: about.title,
      text: sectionsText(about.sections),
      kind: 'page',
    },
    waitlist && {
      path: at('/waitlist'),
      title: waitlist.title,
      text: [waitlist.intro, waitlist.benefitsTitle, ...waitlist.benefits].join('\n'),
      kind: 'page',
    },
    blog && {
      path: at('/blog'),
      title: blog.title,
      text: blog.intro,
      kind: 'page',
    },
    blog && {
      path: at('/changelog'),
      title: blog.changelogTitle,
      text: [blog.changelogIntro, ...changelogEntries(posts).map((entry) => entry.title)].join('\n'),
      kind: 'page',
    },
    ...pages,
    ...posts
      .filter((post) => !post.noindex)
      .map((post) => ({
        path: post.path,
        title: post.title,
        text: [post.excerpt, texts.get(post.id) ?? ''].join('\n'),
        kind: post.kind,
      })),
  ]
  return documents
    .filter((document): document is SearchDocument => document !== null)
    .map((document) => ({
      ...document,
      title: toPlainText(stegaClean(document.title), 'line'),
      text: toPlainText(stegaClean(document.text), 'lines'),
    }))
}

type Held = { source: string; index: SearchIndex }

// One index per language in this server's memory, built again only when the content it is built
// from has changed: the getters answer from Next's data cache, which a publish revalidates by tag.
const held = new Map<string, Held>()

/** The index of a language's documents, built anew when a publish changed them. */
export async function searchIndexFor(language: string): Promise<SearchIndex> {
  const documents = await searchDocuments(language)
  const source = JSON.stringify(documents)
  const kept = held.get(language)
  if (kept?.source === source) return kept.index
  const index = buildSearchIndex(documents)
  held.set(language, { source, index })
  return index
}

/** The results of a (normalized) query in a language. */
export async function searchSite(language: string, query: string): Promise<SearchHit[]> {
  return query ? search(await searchIndexFor(language), query) : []
}
