import type {
  AboutPageQueryResult,
  DemoConversationQueryResult,
  LandingPageQueryResult,
  NotFoundPageQueryResult,
  SiteSettingsQueryResult,
  WaitlistPageQueryResult,
} from '@/sanity/types.generated'
import { stegaClean } from '@sanity/client/stega'
import { shareImageUrl } from './image'
import type { AboutPage, Card, DemoConversation, LandingPage, NotFoundPage, PricingTier, SiteLink, SiteSettings, WaitlistPage } from './types'

// Pure functions from query results to the shapes components use. Kept apart from the
// fetching so tests can run them over the seed with no Next.js runtime.
// In a draft preview every string carries invisible click-to-edit markers (stega); values the
// code compares or puts in URLs are cleaned first, visible copy keeps them.

type Raw<T> = NonNullable<T>
type RawLink = { _key: string; label: string; kind: string; path: string | null; url: string | null; email: string | null }
type RawLanding = Raw<LandingPageQueryResult>
type RawTier = RawLanding['pricing']['tiers'][number]

export const USAGE_CLAIM_TOKEN = '{{usageClaim}}'

/** Replaces the usage-claim token in every string of a value, so all pages state one figure. */
export function withUsageClaim<T>(value: T, usageClaim: string): T {
  if (typeof value === 'string') return value.split(USAGE_CLAIM_TOKEN).join(usageClaim) as T
  if (Array.isArray(value)) return value.map((item) => withUsageClaim(item, usageClaim)) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withUsageClaim(v, usageClaim)])) as T
  }
  return value
}

type RawSeo = { title: string | null; description: string | null; image?: Parameters<typeof shareImageUrl>[0] } | null

const toSeo = (seo: RawSeo) => ({ title: seo?.title ?? null, description: seo?.description ?? null, image: shareImageUrl(seo?.image) })

export function toLink(dirty: RawLink): SiteLink {
  const raw = { ...dirty, kind: stegaClean(dirty.kind), path: stegaClean(dirty.path), url: stegaClean(dirty.url), email: stegaClean(dirty.email) }
  const base = { key: raw._key, label: raw.label }
  switch (raw.kind) {
    case 'internal':
      if (raw.path) return { ...base, kind: 'internal', href: raw.path }
      break
    case 'external':
      if (raw.url) return { ...base, kind: 'external', href: raw.url }
      break
    case 'email':
      if (raw.email) return { ...base, kind: 'email', href: `mailto:${raw.email}` }
      break
    case 'demo':
      return { ...base, kind: 'demo' }
    case 'planned':
      return { ...base, kind: 'planned' }
  }
  // A link whose destination is missing is shown honestly as not yet available.
  return { ...base, kind: 'planned' }
}

const toCards = (items: { _key: string; icon: Card['icon']; title: string; description: string }[]): Card[] =>
  items.map(({ _key, icon, title, description }) => ({ key: _key, icon: stegaClean(icon), title, description }))

export function toSiteSettings(raw: Raw<SiteSettingsQueryResult>, year = new Date().getFullYear()): SiteSettings {
  const { navigation, contact, footer, consent, labels, seo } = raw
  return withUsageClaim(
    {
      siteName: raw.siteName,
      appUrl: raw.appUrl,
      navigation: {
        ...navigation,
        links: navigation.links.map(toLink),
        resources: navigation.resources.map(toLink),
      },
      contact,
      footer: {
        ...footer,
        columns: footer.columns.map((column) => ({ key: column._key, title: column.title, links: column.links.map(toLink) })),
        legalLinks: footer.legalLinks.map(toLink),
        badges: footer.badges ?? [],
        copyright: footer.copyright.replace('{year}', String(year)),
      },
      consent,
      labels,
      productWidgetScriptUrl: stegaClean(raw.productWidgetScriptUrl) || null,
      demoWidget: raw.demoWidget,
      seo: { title: seo.title, description: seo.description, image: shareImageUrl(seo.image) },
    },
    raw.usageClaim,
  )
}

export function formatPrice(amount: number, currency: string, freeLabel: string): string {
  if (amount === 0) return freeLabel
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    maximumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  }).format(amount)
}

export function toPricingTier(dirty: RawTier, labels: RawLanding['pricing']['labels']): PricingTier {
  const raw = {
    ...dirty,
    currency: stegaClean(dirty.currency),
    billingInterval: stegaClean(dirty.billingInterval),
    availability: stegaClean(dirty.availability),
  }
  const terms = [
    raw.trialDays > 0 ? labels.trial.replace('{n}', String(raw.trialDays)) : null,
    raw.noCreditCard ? labels.noCreditCard : null,
    raw.cancelAnytime ? labels.cancelAnytime : null,
  ].filter((term): term is string => term !== null)
  return {
    id: raw._id,
    name: raw.name,
    amount: raw.price,
    currency: raw.currency,
    description: raw.description,
    price: formatPrice(raw.price, raw.currency, labels.free),
    interval: raw.price === 0 ? '' : raw.billingInterval === 'year' ? labels.perYear : labels.perMonth,
    terms,
    insights: raw.insightsLabel.replace('{n}', new Intl.NumberFormat('en-US').format(raw.insightsPerMonth).replace(/,/g, '')),
    overageNote: raw.overageNote,
    features: raw.features,
    available: raw.availability === 'available',
    ctaLabel: raw.ctaLabel,
    highlightLabel: raw.highlighted ? raw.highlightLabel : null,
  }
}

export function toLandingPage(raw: RawLanding, usageClaim: string): LandingPage {
  const { hero, logos, features, audiences, pricing, faq, cta, seo } = raw
  return withUsageClaim(
    {
      hero,
      logos: { title: logos.title, items: logos.items.map(({ _key, name, isSample }) => ({ key: _key, name, isSample: isSample ?? false })) },
      features: { ...features, items: toCards(features.items) },
      audiences: { ...audiences, items: toCards(audiences.items) },
      pricing: {
        eyebrow: pricing.eyebrow,
        title: pricing.title,
        subtitle: pricing.subtitle,
        footnote: pricing.footnote,
        ctaLabel: pricing.ctaLabel,
        // A reference to a deleted or unpublished tier dereferences to null: skip it.
        tiers: pricing.tiers.filter((tier): tier is RawTier => tier !== null).map((tier) => toPricingTier(tier, pricing.labels)),
      },
      faq: {
        eyebrow: null,
        title: faq.title,
        subtitle: faq.subtitle,
        items: faq.items.map(({ _key, question, answer }) => ({ key: _key, question, answer })),
      },
      cta: {
        eyebrow: null,
        title: cta.title,
        subtitle: cta.subtitle,
        primaryCtaLabel: cta.primaryCtaLabel,
        secondaryCtaLabel: cta.secondaryCtaLabel,
        testimonial: { ...cta.testimonial, isSample: cta.testimonial.isSample ?? false },
      },
      seo: toSeo(seo),
    },
    usageClaim,
  )
}

export function toAboutPage(raw: Raw<AboutPageQueryResult>, usageClaim: string): AboutPage {
  const { hero, mission, vision, values, team, contact, cta, seo } = raw
  return withUsageClaim(
    {
      hero,
      mission,
      vision,
      values: { eyebrow: null, title: values.title, subtitle: values.subtitle, items: toCards(values.items) },
      team,
      contact: { eyebrow: null, ...contact },
      cta: { eyebrow: null, ...cta },
      seo: toSeo(seo),
    },
    usageClaim,
  )
}

export function toWaitlistPage(raw: Raw<WaitlistPageQueryResult>, usageClaim: string): WaitlistPage {
  const { seo, ...rest } = raw
  return withUsageClaim({ ...rest, seo: toSeo(seo) }, usageClaim)
}

export function toNotFoundPage(raw: Raw<NotFoundPageQueryResult>): NotFoundPage {
  return raw
}

/**
 * Resolves each reply's follow-up (its own, else the step's shared one) and which step the
 * insight quotes (the marked one; the last if none is marked), so the widget just plays it.
 */
export function toDemoConversation(raw: Raw<DemoConversationQueryResult>): DemoConversation {
  const marked = raw.steps.findIndex((step) => step.quoted === true)
  return {
    id: raw._id,
    context: raw.context,
    opening: raw.opening,
    steps: raw.steps.map((step) => ({
      key: step._key,
      replies: step.replies.map((reply) => ({ key: reply._key, text: reply.text, followUp: reply.followUp || step.followUp || '' })),
    })),
    quotedStep: marked === -1 ? raw.steps.length - 1 : marked,
    insight: { ...raw.insight, sentiment: stegaClean(raw.insight.sentiment) },
  }
}
