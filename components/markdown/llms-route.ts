import { priceInWords } from '@/components/sections/pricing/markdown'
import {
  getAboutPage,
  getBlogCopy,
  getLandingPage,
  getLlmsCopy,
  getPage,
  getPageList,
  getPostSummaries,
  getSiteSettings,
  getWaitlistPage,
} from '@/sanity/content'
import type { SectionOf } from '@/sanity/content'
import { pagePath, twinPath } from '@/lib/content/paths'
import { publicEnv } from '@/lib/env'
import { localizePath } from '@/lib/i18n/languages'
import { START_TRIAL_PATH } from '@/components/waitlist/start-trial-link'
import { buildLlmsTxt, type LlmsLink } from './llms'

/**
 * A language's /llms.txt: every published page and post of that language, each linked to its
 * Markdown twin, the prices in words and where to join the waitlist, under the words of Site
 * settings. Static, refreshed by the publish webhook like the sitemap (the same getters, so the
 * same tags); a page or post hidden from search engines (`noindex`, the landing and about pages
 * too) is left out: its twin says `noindex` (twin-route.ts), and assistants are not sent there.
 */
export async function llmsResponse(language: string): Promise<Response> {
  const [copy, settings, landing, about, pageList, posts, blog, waitlist] = await Promise.all([
    getLlmsCopy(language),
    getSiteSettings(language),
    getLandingPage(language),
    getAboutPage(language),
    getPageList(),
    getPostSummaries(language),
    getBlogCopy(language),
    getWaitlistPage(language),
  ])
  if (!copy || !landing) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
  const siteUrl = publicEnv.siteUrl
  const twin = (path: string) => new URL(twinPath(path), siteUrl).href
  const builderPages = await Promise.all(pageList.filter((page) => page.language === language && !page.noindex).map((page) => getPage(page.slug, language)))
  const pages: LlmsLink[] = [
    ...(landing.seo.noindex
      ? []
      : [{ title: landing.title, url: twin(localizePath('/', language)), note: landing.seo.description ?? settings.seo.description }]),
    ...(about && !about.seo.noindex ? [{ title: about.title, url: twin(localizePath('/about', language)), note: about.seo.description }] : []),
    ...builderPages.flatMap((page) => (page ? [{ title: page.title, url: twin(pagePath(page.slug, language)), note: page.seo.description }] : [])),
  ]
  const shown = posts.filter((post) => !post.noindex)
  const postLinks = (kind: 'article' | 'changelog') =>
    shown.filter((post) => post.kind === kind).map((post) => ({ title: post.title, url: twin(post.path), note: post.excerpt }))
  const pricing = landing.sections.find((section): section is SectionOf<'pricingSection'> => section._type === 'pricingSection')
  const body = buildLlmsTxt({
    siteName: settings.siteName,
    summary: copy.summary,
    siteUrl,
    sections: [
      { heading: copy.pagesHeading, links: pages },
      ...(blog
        ? [
            { heading: blog.title, links: postLinks('article') },
            { heading: blog.changelogTitle, links: postLinks('changelog') },
          ]
        : []),
      {
        heading: copy.pricingHeading,
        // The prices are read from the landing page's twin: not where that page is hidden.
        links: (landing.seo.noindex ? [] : (pricing?.tiers ?? [])).map((tier) => ({
          title: `${tier.name}: ${priceInWords(tier)}`,
          url: twin(localizePath('/', language)),
          note: [tier.description, ...tier.terms].join(' · '),
        })),
      },
      {
        heading: copy.waitlistHeading,
        links: waitlist ? [{ title: waitlist.title, url: new URL(localizePath(START_TRIAL_PATH, language), siteUrl).href, note: waitlist.intro }] : [],
      },
    ],
  })
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}
