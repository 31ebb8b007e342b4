import type { PricingTier } from '@/sanity/content'
import { localizePath } from '@/lib/i18n/languages'
import { blocks, heading, link, list, table, text, titled } from '@/lib/markdown/markdown'
import { START_TRIAL_PATH } from '@/components/waitlist/start-trial-link'
import type { SectionMarkdown } from '../markdown-types'

/** A plan's price in words: "$29/month" (or "$29 per month", as the interval is written), or the free plan's word alone. */
export const priceInWords = (tier: Pick<PricingTier, 'price' | 'interval'>) =>
  `${tier.price}${!tier.interval || tier.interval.startsWith('/') ? '' : ' '}${tier.interval}`

// The prices as a table, a column per plan under its name (the words of each row are the page's
// own: price, terms, what it includes), then each plan's description and features.
export const pricingMarkdown: SectionMarkdown<'pricingSection'> = (pricing, level, { settings, siteUrl }) => {
  const { tiers } = pricing
  return blocks(
    titled(pricing, level),
    table(
      tiers.map((tier) => tier.name),
      [
        tiers.map(priceInWords),
        tiers.map((tier) => tier.terms.join(' · ')),
        tiers.map((tier) => [tier.insights, tier.overageNote].filter(Boolean).join(' ')),
      ].filter((row) => row.some(Boolean)),
    ),
    ...tiers.map((tier) =>
      blocks(heading(level + 1, tier.name), text(tier.highlightLabel), text(tier.description, 'lines'), list(tier.features.map((feature) => text(feature)))),
    ),
    text(pricing.footnote, 'lines'),
    link(pricing.ctaLabel, localizePath(START_TRIAL_PATH, settings.language), siteUrl),
  )
}
