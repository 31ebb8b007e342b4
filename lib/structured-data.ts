import type { LandingPage, SiteSettings } from '@/lib/content'
import { publicEnv } from '@/lib/env'

/** schema.org data for the landing page: the organisation, and the product with an offer per tier. */
export function landingStructuredData(settings: SiteSettings, page: LandingPage) {
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
  const product = {
    '@type': 'Product',
    name: settings.siteName,
    description: settings.seo.description,
    brand: { '@id': organization['@id'] },
    offers: page.pricing.tiers.map((tier) => ({
      '@type': 'Offer',
      name: tier.name,
      price: tier.amount.toFixed(2),
      priceCurrency: tier.currency,
      availability: tier.available ? 'https://schema.org/InStock' : 'https://schema.org/PreOrder',
      url: new URL('/waitlist', url).toString(),
    })),
  }
  return { '@context': 'https://schema.org', '@graph': [organization, product] }
}
