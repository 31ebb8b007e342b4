import { defineDocuments, defineLocations, type PresentationPluginOptions } from 'sanity/presentation'
import { DEFAULT_LANGUAGE, localizePath } from '../../lib/i18n/languages'
import { pagePath, postPath } from '../../lib/content/paths'

type Located = { title?: string | null; slug?: string | null; language?: string | null }

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
    resolve: (doc: Located | null) => (doc?.slug ? { locations: [{ title: doc.title ?? doc.slug, href: pathOf(doc.slug, doc.language ?? DEFAULT_LANGUAGE) }] } : null),
  })

/**
 * Where the Presentation tool shows each document: a page or post at its own address in its
 * language (drafts and never-published ones included, through draft mode), the fixed pages at
 * theirs. German addresses carry their prefix, so a German document opens its German page.
 */
export const resolve: PresentationPluginOptions['resolve'] = {
  mainDocuments: defineDocuments([
    { route: '/', filter: `_type == "landingPage" && coalesce(language, "${DEFAULT_LANGUAGE}") == "${DEFAULT_LANGUAGE}"` },
    { route: '/about', filter: `_type == "aboutPage" && coalesce(language, "${DEFAULT_LANGUAGE}") == "${DEFAULT_LANGUAGE}"` },
    { route: '/waitlist', filter: `_type == "waitlistPage" && coalesce(language, "${DEFAULT_LANGUAGE}") == "${DEFAULT_LANGUAGE}"` },
    { route: '/blog/:slug', filter: `_type == "post" && slug.current == $slug && coalesce(language, "${DEFAULT_LANGUAGE}") == "${DEFAULT_LANGUAGE}"` },
    { route: '/:lang/blog/:slug', filter: '_type == "post" && slug.current == $slug && language == $lang' },
    { route: '/:lang', filter: '_type == "landingPage" && language == $lang' },
    { route: '/:lang/about', filter: '_type == "aboutPage" && language == $lang' },
    { route: '/:lang/waitlist', filter: '_type == "waitlistPage" && language == $lang' },
    { route: '/:lang/:slug', filter: '_type == "page" && slug.current == $slug && language == $lang' },
    { route: '/:slug', filter: `_type == "page" && slug.current == $slug && coalesce(language, "${DEFAULT_LANGUAGE}") == "${DEFAULT_LANGUAGE}"` },
  ]),
  locations: {
    page: addressed(pagePath),
    post: addressed(postPath),
    landingPage: fixedPage('Landing page', '/'),
    aboutPage: fixedPage('About page', '/about'),
    waitlistPage: fixedPage('Waitlist page', '/waitlist'),
  },
}
