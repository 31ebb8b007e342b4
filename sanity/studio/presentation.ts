import { defineDocuments, defineLocations, type PresentationPluginOptions } from 'sanity/presentation'
import { pagePath } from '../../lib/content/paths'

/**
 * Where the Presentation tool shows each document: a page at its own address (drafts and
 * never-published pages included, through draft mode), the fixed pages at theirs.
 */
export const resolve: PresentationPluginOptions['resolve'] = {
  mainDocuments: defineDocuments([
    { route: '/', filter: '_type == "landingPage" && _id == "landingPage"' },
    { route: '/about', filter: '_type == "aboutPage" && _id == "aboutPage"' },
    { route: '/waitlist', filter: '_type == "waitlistPage" && _id == "waitlistPage"' },
    { route: '/:slug', filter: '_type == "page" && slug.current == $slug' },
  ]),
  locations: {
    page: defineLocations({
      select: { title: 'title', slug: 'slug.current' },
      resolve: (doc) => (doc?.slug ? { locations: [{ title: doc.title ?? doc.slug, href: pagePath(doc.slug) }] } : null),
    }),
    landingPage: defineLocations({ locations: [{ title: 'Landing page', href: '/' }] }),
    aboutPage: defineLocations({ locations: [{ title: 'About page', href: '/about' }] }),
  },
}
