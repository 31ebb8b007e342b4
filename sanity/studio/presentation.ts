import { defineDocuments, defineLocations, type PresentationPluginOptions } from 'sanity/presentation'
import { DEFAULT_LANGUAGE, localizePath } from '../../lib/i18n/languages'
import { pagePath, postPath } from '../../lib/content/paths'

type Located = { title?: string | null; slug?: string | null; language?: string | null }

/** The base language's document (one written before languages has no language field). */
const inBase = `coalesce(language, "${DEFAULT_LANGUAGE}") == "${DEFAULT_LANGUAGE}"`

/** A fixed page's location in the document's own language. */
const fixedPage = (title: string, path: string) =>
  defineLocations({
    select: { language: 'language' },
    resolve: (doc: Located | null) => ({ locations: [{ title, href: localizePath(path, doc?.language ?? DEFAULT_LANGUAGE) }] }),
  })

/** A page's or post's location: its address in its own language. */
const addressed = (pathOf: (slug: string, language: string) => string) =>
  defineLocations({
    select: { title: 'title', slug: 'slug.current', language: 'language' },
    resolve: (doc: Located | null) =>
      doc?.slug ? { locations: [{ title: doc.title ?? doc.slug, href: pathOf(doc.slug, doc.language ?? DEFAULT_LANGUAGE) }] } : null,
  })

/**
 * Where the Presentation tool shows each document: a page or post at its own address in its
 * language (drafts and never-published ones included, through draft mode), the fixed pages at
 * theirs. German addresses carry their prefix, so a German document opens its German page.
 */
export const resolve: PresentationPluginOptions['resolve'] = {
  // The first route whose pattern matches an address decides, so each pattern is listed once: a
  // first segment is a page's slug in English or a language's landing page, two are a language and
  // one of its pages.
  mainDocuments: defineDocuments([
    { route: '/', filter: `_type == "landingPage" && ${inBase}` },
    { route: '/about', filter: `_type == "aboutPage" && ${inBase}` },
    { route: '/waitlist', filter: `_type == "waitlistPage" && ${inBase}` },
    { route: '/blog/:slug', filter: `_type == "post" && slug.current == $slug && ${inBase}` },
    { route: '/:lang/blog/:slug', filter: '_type == "post" && slug.current == $slug && language == $lang' },
    { route: '/:first', filter: `(_type == "page" && slug.current == $first && ${inBase}) || (_type == "landingPage" && language == $first)` },
    {
      route: '/:lang/:second',
      filter:
        'language == $lang && ((_type == "page" && slug.current == $second) || (_type == "aboutPage" && $second == "about") || (_type == "waitlistPage" && $second == "waitlist"))',
    },
  ]),
  locations: {
    page: addressed(pagePath),
    post: addressed(postPath),
    landingPage: fixedPage('Landing page', '/'),
    aboutPage: fixedPage('About page', '/about'),
    waitlistPage: fixedPage('Waitlist page', '/waitlist'),
  },
}
