import type { IconName } from '@/sanity/schemaTypes/objects/icon'
import type { WaitlistErrorCopy } from '@/lib/waitlist/rules'

// The shapes components receive. They say what a page shows, not how Sanity stores it:
// the mapping in ./pages.ts is the only code that knows both.

export type { IconName }

export type SiteLink = { key: string; label: string } & (
  | { kind: 'internal'; href: string }
  | { kind: 'external'; href: string }
  | { kind: 'email'; href: string }
  | { kind: 'demo' }
  | { kind: 'planned' }
)

export type Card = { key: string; icon: IconName; title: string; description: string }

export type Heading = { eyebrow: string | null; title: string; subtitle: string | null }

export type SiteSettings = {
  siteName: string
  appUrl: string
  navigation: {
    links: SiteLink[]
    resourcesLabel: string
    resources: SiteLink[]
    tryDemoLabel: string
    signInLabel: string
    startTrialLabel: string
    menuLabel: string
  }
  contact: { generalEmail: string; supportEmail: string; location: string; twitterUrl: string; linkedinUrl: string }
  footer: {
    blurb: string
    columns: { key: string; title: string; links: SiteLink[] }[]
    legalLinks: SiteLink[]
    badges: string[]
    statusText: string
    copyright: string
    socialHeading: string
  }
  consent: { title: string; text: string; acceptLabel: string; declineLabel: string; browserRefusesNote: string; settingsLabel: string }
  labels: { skipToContent: string; sample: string; planned: string; closeMenu: string; mainNavigation: string }
  /** The product's own widget snippet; when set, the Try Demo buttons toggle it instead of the scripted demo. */
  productWidgetScriptUrl: string | null
  demoWidget: DemoWidgetCopy
  seo: { title: string; description: string; image: string | null }
}

export type PricingTier = {
  id: string
  name: string
  /** The plain figures, for structured data. */
  amount: number
  currency: string
  description: string
  price: string
  interval: string
  terms: string[]
  insights: string
  overageNote: string | null
  features: string[]
  available: boolean
  ctaLabel: string
  highlightLabel: string | null
}

export type Testimonial = { quote: string; author: string; role: string; isSample: boolean }

/** Per-page search and sharing; `image` is a ready URL, null to use the drawn image. */
export type Seo = { title: string | null; description: string | null; image: string | null }

export type LandingPage = {
  hero: {
    badge: string | null
    title: string
    titleHighlight: string | null
    subtitle: string
    primaryCtaLabel: string
    secondaryCtaLabel: string
    highlights: string[]
    socialProof: string | null
  }
  logos: { title: string; items: { key: string; name: string; isSample: boolean }[] }
  features: Heading & { items: Card[] }
  audiences: Heading & { items: Card[] }
  pricing: Heading & { tiers: PricingTier[]; footnote: string | null; ctaLabel: string }
  faq: Heading & { items: { key: string; question: string; answer: string }[] }
  cta: Heading & { primaryCtaLabel: string; secondaryCtaLabel: string; testimonial: Testimonial }
  seo: Seo
}

export type AboutPage = {
  hero: Heading
  mission: { title: string; body: string }
  vision: { title: string; body: string }
  values: Heading & { items: Card[] }
  team: { title: string; body: string }
  contact: Heading & { generalEmailLabel: string; supportEmailLabel: string; locationLabel: string }
  cta: Heading & { buttonLabel: string }
  seo: Seo
}

export type WaitlistPage = {
  backLabel: string
  badge: string | null
  title: string
  intro: string
  benefitsTitle: string
  benefits: string[]
  form: {
    title: string
    nameLabel: string
    namePlaceholder: string | null
    companyLabel: string
    companyPlaceholder: string | null
    emailLabel: string
    emailPlaceholder: string | null
    lengthHint: string
    submitLabel: string
    submittingLabel: string
    privacyNote: string
  } & WaitlistErrorCopy
  confirmation: { title: string; text: string; nextStepsTitle: string; nextSteps: string[]; backLabel: string }
  messages: { success: string; duplicate: string; backendError: string; failure: string; rateLimited: string; automated: string }
  seo: Seo
}

export type NotFoundPage = { title: string; text: string; homeLabel: string }

export type DemoSentiment = 'positive' | 'neutral' | 'mixed' | 'negative'

/** The words around the scripted demo (Site settings → Demo widget). */
export type DemoWidgetCopy = {
  title: string
  badge: string
  note: string
  closeLabel: string
  chooseReplyLabel: string
  restartLabel: string
  interviewerLabel: string
  visitorLabel: string
  typingLabel: string
  insightTitle: string
  quoteLabel: string
  actionLabel: string
  sentiments: Record<DemoSentiment, string>
}

/** A scripted research interview: each reply already knows the follow-up it leads to. */
export type DemoConversation = {
  id: string
  context: string
  opening: string
  steps: { key: string; replies: { key: string; text: string; followUp: string }[] }[]
  /** The step whose chosen reply the insight quotes (an index into steps). */
  quotedStep: number
  insight: { channel: string; summary: string; tags: string[]; sentiment: DemoSentiment; action: string }
}

/** Everything the demo widget shows: serializable, so the server page can hand it to the client host. */
export type DemoWidgetContent = { copy: DemoWidgetCopy; conversation: DemoConversation; sender: string }
