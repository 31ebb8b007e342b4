import type {
  CampaignQueryResult,
  DemoConversationQueryResult,
  ExperimentQueryResult,
  LandingPageQueryResult,
  MovedAddressesQueryResult,
  NotFoundPageQueryResult,
  PageListQueryResult,
  PageQueryResult,
  RedirectsQueryResult,
  SiteSettingsQueryResult,
  WaitlistPageQueryResult,
} from '@/sanity/types.generated'
import { stegaClean } from '@sanity/client/stega'
import { CONTACT_EMAIL_TOKEN, USAGE_CLAIM_TOKEN } from '@/sanity/tokens'
import { toAnnouncement } from './announcement'
import { shareImageUrl } from '@/lib/content/image'
import { DEFAULT_LANGUAGE, isLanguageCode, languageTag, localizePath, type SiteLanguage } from '@/lib/i18n/languages'
import { warnOnce } from '@/lib/warn-once'
import { publishableQuestions, questionsIn } from '@/sanity/questions/rules'
import { publishableRungs, rungsIn } from '@/sanity/rewards/rules'
import { publishableTasks, tasksIn } from '@/sanity/tasks/rules'
import { MOVABLE_TYPES, normalizePath, onSitePath, pagePath, redirectLocation } from '@/lib/content/paths'
import type {
  Alternate,
  DemoConversation,
  NotFoundPage,
  Page,
  PageListItem,
  PricingTier,
  RawSection,
  Redirect,
  Section,
  SectionPage,
  SiteLink,
  SiteSettings,
  WaitlistPage,
} from './types'

// Pure functions from query results to the shapes components use. Kept apart from the
// fetching so tests can run them over the seed with no Next.js runtime.
// In a draft preview every string carries invisible click-to-edit markers (stega); values the
// code compares or puts in URLs are cleaned first, visible copy keeps them.

type Raw<T> = NonNullable<T>
type RawLink = {
  _key: string | null
  label: string
  kind: string
  path: string | null
  url: string | null
  email: string | null
  pageSlug: string | null
  pageLanguage: string | null
}
type RawPricing = Extract<RawSection, { _type: 'pricingSection' }>
type RawTier = RawPricing['tiers'][number]

/** Values from Site settings that copy may name by token. */
export type ContentTokens = { usageClaim: string; contactEmail: string }

export const contentTokens = (settings: { usageClaim: string; contact: { generalEmail: string } }): ContentTokens => ({
  usageClaim: settings.usageClaim,
  contactEmail: settings.contact.generalEmail,
})

/** Replaces each token in every string of a value. */
function withTokens<T>(value: T, tokens: [string, string][]): T {
  if (typeof value === 'string') return tokens.reduce((text, [token, replacement]) => text.split(token).join(replacement), value as string) as T
  if (Array.isArray(value)) return value.map((item) => withTokens(item, tokens)) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withTokens(v, tokens)])) as T
  }
  return value
}

/** Replaces the usage-claim token in every string of a value, so all pages state one figure. */
export function withUsageClaim<T>(value: T, usageClaim: string): T {
  return withTokens(value, [[USAGE_CLAIM_TOKEN, usageClaim]])
}

function withContentTokens<T>(value: T, tokens: ContentTokens): T {
  return withTokens(value, [
    [USAGE_CLAIM_TOKEN, tokens.usageClaim],
    [CONTACT_EMAIL_TOKEN, tokens.contactEmail],
  ])
}

type RawSeo = { title: string | null; description: string | null; image?: Parameters<typeof shareImageUrl>[0]; noindex?: boolean | null } | null

export const toSeo = (seo: RawSeo) => ({
  title: seo?.title ?? null,
  description: seo?.description ?? null,
  image: shareImageUrl(seo?.image),
  noindex: stegaClean(seo?.noindex) === true,
})

/**
 * A link for a document in `language`: a page by reference goes to that page in its own language
 * (a translation links its language's page), a path such as /waitlist to the path in `language`.
 */
export function toLink(dirty: RawLink, language: string = DEFAULT_LANGUAGE): SiteLink {
  const raw = {
    ...dirty,
    kind: stegaClean(dirty.kind),
    path: stegaClean(dirty.path),
    url: stegaClean(dirty.url),
    email: stegaClean(dirty.email),
    pageSlug: stegaClean(dirty.pageSlug),
    pageLanguage: stegaClean(dirty.pageLanguage),
  }
  // A single link (not in a list) has no _key; its label identifies it well enough for React.
  const base = { key: raw._key ?? raw.label, label: raw.label }
  switch (raw.kind) {
    case 'page':
      // An unpublished or deleted page dereferences to null: shown as planned, never a dead link.
      if (raw.pageSlug) return { ...base, kind: 'internal', href: pagePath(raw.pageSlug, raw.pageLanguage ?? language) }
      break
    case 'internal': {
      // A path written before the Studio's rule that would lead off the site is shown as not available.
      const path = onSitePath(raw.path)
      if (path) return { ...base, kind: 'internal', href: localizePath(path, language) }
      if (raw.path) warnOnce(`[content] The link "${raw.label}" is shown as not available: ${JSON.stringify(raw.path)} is not a path on this site`)
      break
    }
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

export function toSiteSettings(raw: Raw<SiteSettingsQueryResult>, language: string = DEFAULT_LANGUAGE, year = new Date().getFullYear()): SiteSettings {
  const { navigation, contact, footer, consent, labels, seo } = raw
  const link = (raw: RawLink) => toLink(raw, language)
  return withUsageClaim(
    {
      language,
      siteName: raw.siteName,
      appUrl: raw.appUrl,
      navigation: {
        ...navigation,
        links: navigation.links.map(link),
        resources: navigation.resources.map(link),
      },
      contact,
      footer: {
        ...footer,
        columns: footer.columns.map((column) => ({ key: column._key, title: column.title, links: column.links.map(link) })),
        legalLinks: footer.legalLinks.map(link),
        badges: footer.badges ?? [],
        copyright: footer.copyright.replace('{year}', String(year)),
      },
      consent: { ...consent, policyLink: link(consent.policyLink) },
      labels,
      search: raw.search,
      productWidgetScriptUrl: stegaClean(raw.productWidgetScriptUrl) || null,
      demoWidget: raw.demoWidget,
      announcement: toAnnouncement(raw.announcement, raw.announcement?.link ? link(raw.announcement.link) : null, stegaClean),
      seo: { title: seo.title, description: seo.description, image: shareImageUrl(seo.image) },
    },
    raw.usageClaim,
  )
}

/** A price as the language writes it: $29 in English, 29 $ in German. */
export function formatPrice(amount: number, currency: string, freeLabel: string, language: string = DEFAULT_LANGUAGE): string {
  if (amount === 0) return freeLabel
  return new Intl.NumberFormat(language === DEFAULT_LANGUAGE ? 'en-US' : languageTag(language), {
    style: 'currency',
    currency,
    maximumFractionDigits: Number.isInteger(amount) ? 0 : 2,
  }).format(amount)
}

export function toPricingTier(dirty: RawTier, labels: RawPricing['labels'], language: string = DEFAULT_LANGUAGE): PricingTier {
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
    price: formatPrice(raw.price, raw.currency, labels.free, language),
    interval: raw.price === 0 ? '' : raw.billingInterval === 'year' ? labels.perYear : labels.perMonth,
    terms,
    insights: raw.insightsLabel.replace('{n}', String(raw.insightsPerMonth)),
    overageNote: raw.overageNote,
    features: raw.features,
    available: raw.availability === 'available',
    ctaLabel: raw.ctaLabel,
    highlightLabel: raw.highlighted ? raw.highlightLabel : null,
  }
}

/** One section for its component: values the code compares are cleaned, tiers priced. */
function toSection(raw: RawSection, language: string): Section {
  const section = { ...raw, anchorId: stegaClean(raw.anchorId) || null }
  switch (section._type) {
    case 'pricingSection': {
      const { labels, tiers, ...rest } = section
      // A reference to a deleted or unpublished tier dereferences to null: skip it.
      return { ...rest, tiers: tiers.filter((tier): tier is RawTier => tier !== null).map((tier) => toPricingTier(tier, labels, language)) }
    }
    case 'heroSection':
      return { ...section, visual: section.visual ? toDemoConversation(section.visual) : null }
    case 'cardGridSection':
      return {
        ...section,
        columns: stegaClean(section.columns),
        layout: stegaClean(section.layout) === 'rows' ? 'rows' : 'cards',
        tinted: section.tinted === true,
        items: section.items.map((item) => ({ ...item, icon: stegaClean(item.icon) })),
      }
    default:
      return section
  }
}

export function toSections(raw: RawSection[] | null, tokens: ContentTokens, language: string = DEFAULT_LANGUAGE): Section[] {
  return withContentTokens(
    (raw ?? []).map((section) => toSection(section, language)),
    tokens,
  )
}

/** An experiment's variants in one language, each section reshaped as the page's own are (null where the variant has none in it). */
export function toExperiment(raw: NonNullable<ExperimentQueryResult>, tokens: ContentTokens, language: string) {
  return {
    key: raw.key,
    state: raw.state,
    sectionKey: raw.sectionKey,
    variants: (raw.variants ?? []).map((variant) => ({
      key: variant.key,
      section: toSections(variant.section?.sections ?? null, tokens, language)[0] ?? null,
    })),
  }
}

/** A campaign version as its page draws it: its section in one language, or null where it has none. */
export function toCampaign(raw: NonNullable<CampaignQueryResult>, tokens: ContentTokens, language: string) {
  return {
    key: raw.key,
    sectionKey: raw.sectionKey,
    section: toSections(raw.version?.sections ?? null, tokens, language)[0] ?? null,
  }
}

export function toSectionPage(raw: Raw<LandingPageQueryResult>, tokens: ContentTokens, language: string = DEFAULT_LANGUAGE): SectionPage {
  return {
    title: withContentTokens(raw.title, tokens),
    languages: cleanLanguages(raw.languages),
    sections: toSections(raw.sections, tokens, language),
    seo: toSeo(raw.seo),
  }
}

/** The Languages document's list, English first whatever its order there; English alone without one. */
export function toSiteLanguages(raw: { code: string; title: string }[] | null): SiteLanguage[] {
  const languages = (raw ?? []).map(({ code, title }) => ({ code: stegaClean(code), title }))
  const base = languages.find((language) => language.code === DEFAULT_LANGUAGE) ?? { code: DEFAULT_LANGUAGE, title: 'English' }
  return [base, ...languages.filter((language) => language.code !== DEFAULT_LANGUAGE && isLanguageCode(language.code))]
}

/** The languages a fixed page is published in. */
export const cleanLanguages = (languages: (string | null)[] | null): string[] =>
  (languages ?? []).filter((code): code is string => typeof code === 'string').map(stegaClean)

type RawTranslations = { language: string; slug: string | null }[] | null

/**
 * A page's or post's published translations as addresses, its own always among them (a document
 * with no translations has no metadata): its alternates (hreflang) and the switcher's targets.
 */
export function toAlternates(raw: RawTranslations, pathOf: (slug: string, language: string) => string, self: { slug: string; language: string }): Alternate[] {
  const others = (raw ?? [])
    .map(({ language, slug }) => ({ language: stegaClean(language), slug: stegaClean(slug) }))
    .filter((translation): translation is { language: string; slug: string } => Boolean(translation.slug) && translation.language !== self.language)
  return [self, ...others].map(({ language, slug }) => ({ language, path: pathOf(slug, language) }))
}

/** The headline a page opens with (its hero or page header), for its drawn share image. */
export function sectionPageHeadline(page: SectionPage): string | null {
  for (const section of page.sections) {
    if (section._type === 'heroSection') return [section.title, section.titleHighlight].filter(Boolean).join(' ')
    if (section._type === 'pageHeaderSection') return section.title
  }
  return null
}

export function toPage(raw: Raw<PageQueryResult>, tokens: ContentTokens, language: string = DEFAULT_LANGUAGE): Page {
  return {
    id: raw._id,
    title: withContentTokens(raw.title, tokens),
    slug: stegaClean(raw.slug),
    language,
    alternates: toAlternates(raw.translations, pagePath, { slug: stegaClean(raw.slug), language }),
    languages: toAlternates(raw.translations, pagePath, { slug: stegaClean(raw.slug), language }).map((alternate) => alternate.language),
    sections: toSections(raw.sections, tokens, language),
    seo: toSeo(raw.seo),
  }
}

export function toPageList(raw: PageListQueryResult): PageListItem[] {
  return raw.map((item) => ({
    slug: item.slug,
    language: item.language,
    path: pagePath(item.slug, item.language),
    alternates: toAlternates(item.translations, pagePath, item),
    title: item.title,
    noindex: item.noindex === true,
    updatedAt: item._updatedAt,
  }))
}

/**
 * The redirects by source path (as normalizePath writes it), each with where it sends the visitor.
 * A redirect whose destination is gone (an unpublished page) is left out: then the 404 answers.
 */
export function toRedirects(raw: RedirectsQueryResult): Map<string, Redirect> {
  const redirects = new Map<string, Redirect>()
  for (const item of raw) {
    const destination = item.kind === 'url' ? item.url : item.path
    if (!item.source || !destination) continue
    // The Studio refuses a destination that leaves the site; one written before that rule is left out.
    if (!redirectLocation(destination, 'https://same.site.invalid')) {
      warnOnce(
        `[content] The redirect from ${JSON.stringify(item.source)} is left out: its destination ${JSON.stringify(destination)} is not a path on this site or an http(s) address`,
      )
      continue
    }
    redirects.set(normalizePath(item.source), { destination, permanent: item.permanent === true })
  }
  return redirects
}

/**
 * The redirects of the pages and posts that moved: each old slug, in the document's language, to
 * its address now, permanently. The list comes most recent first, so an old address two documents
 * had goes where the later move took it. An old slug that breaks the slug rule (written by anything
 * that skips the Studio) is left out: it could name no address of ours.
 */
export function toMovedRedirects(raw: MovedAddressesQueryResult): Map<string, Redirect> {
  const redirects = new Map<string, Redirect>()
  for (const { _type, slug, language, previousSlugs } of raw) {
    const { problem, pathOf } = MOVABLE_TYPES[_type]
    if (problem(slug) !== null) continue
    const destination = pathOf(slug, language)
    for (const old of previousSlugs ?? []) {
      const source = pathOf(old, language)
      if (problem(old) !== null || source === destination || redirects.has(source)) continue
      redirects.set(source, { destination, permanent: true })
    }
  }
  return redirects
}

export function toWaitlistPage(raw: Raw<WaitlistPageQueryResult>, usageClaim: string, language: string = DEFAULT_LANGUAGE): WaitlistPage {
  const { seo, form, languages, email, questions, rewards, tasks, ...rest } = raw
  // The rungs the database records (components/waitlist/rewards-sync.ts copies the same).
  const ladder = rungsIn(publishableRungs(stegaClean(rewards)).rungs, language)
  return withUsageClaim(
    {
      ...rest,
      // Exactly what the database accepts answers to (components/waitlist/questions-sync.ts copies the same).
      questions: questionsIn(publishableQuestions(stegaClean(questions)).questions, language),
      rewards: ladder,
      // The tasks the database takes answers to (components/waitlist/tasks-sync.ts copies the same).
      tasks: tasksIn(publishableTasks(stegaClean(tasks)).tasks, language),
      language,
      languages: cleanLanguages(languages),
      form: { ...form, privacyLink: toLink(form.privacyLink, language) },
      email: { ...email, language, rewards: ladder },
      seo: toSeo(seo),
    },
    usageClaim,
  )
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
