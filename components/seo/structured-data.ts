import type { Page, Post, PricingTier, SectionPage, SiteSettings } from '@/sanity/content'
import { pagePath } from '@/lib/content/paths'
import { publicEnv } from '@/lib/env'
import { localizePath } from '@/lib/i18n/languages'

/** schema.org data for the landing page: the organisation, and the product with an offer per tier. */
export function landingStructuredData(settings: SiteSettings, page: SectionPage) {
  const url = publicEnv.siteUrl
  const organization = {
    '@type': 'Organization',
    '@id': `${url}#organization`,
    name: settings.siteName,
    url,
    logo: new URL('/icon.svg', url).toString(),
    email: settings.contact.generalEmail,
    sameAs: [settings.contact.twitterUrl, settings.contact.linkedinUrl],
  }
  const tiers: PricingTier[] = page.sections.flatMap((section) => (section._type === 'pricingSection' ? section.tiers : []))
  const product = {
    '@type': 'Product',
    name: settings.siteName,
    description: settings.seo.description,
    brand: { '@id': organization['@id'] },
    offers: tiers.map((tier) => ({
      '@type': 'Offer',
      name: tier.name,
      price: tier.amount.toFixed(2),
      priceCurrency: tier.currency,
      availability: tier.available ? 'https://schema.org/InStock' : 'https://schema.org/PreOrder',
      url: new URL(localizePath('/waitlist', settings.language), url).toString(),
    })),
  }
  return { '@context': 'https://schema.org', '@graph': [organization, product] }
}

/** Home › page, for search results that show where a page sits. */
export function breadcrumbStructuredData(settings: SiteSettings, page: Pick<Page, 'title' | 'slug' | 'language'>) {
  const url = publicEnv.siteUrl
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: [
      { '@type': 'ListItem', position: 1, name: settings.siteName, item: new URL(localizePath('/', page.language), url).toString() },
      { '@type': 'ListItem', position: 2, name: page.title, item: new URL(pagePath(page.slug, page.language), url).toString() },
    ],
  }
}

/** schema.org BlogPosting for a post: headline, dates, authors, publisher and its share image. */
export function postStructuredData(settings: SiteSettings, post: Post, image: string) {
  const url = publicEnv.siteUrl
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.excerpt,
    datePublished: post.publishedAt,
    dateModified: post.updatedAt,
    url: new URL(post.path, url).toString(),
    mainEntityOfPage: new URL(post.path, url).toString(),
    image: new URL(image, url).toString(),
    author:
      post.authors.length > 0
        ? post.authors.map((author) => ({ '@type': 'Person', name: author.name, ...(author.role ? { jobTitle: author.role } : {}) }))
        : { '@type': 'Organization', name: settings.siteName, url },
    publisher: { '@type': 'Organization', name: settings.siteName, url, logo: new URL('/icon.svg', url).toString() },
    keywords: post.categories.map((category) => category.title).join(', ') || undefined,
  }
}
