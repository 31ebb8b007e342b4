import type { IconName } from '@/sanity/schemaTypes/objects/icon'
import type { BlogPageQueryResult, PageQueryResult, PostQueryResult, SiteSettingsQueryResult, WaitlistPageQueryResult } from '@/sanity/types.generated'
import type { SectionImage } from '@/lib/content/image'
import type { FormQuestion } from '@/sanity/questions/rules'
import type { LadderRung } from '@/sanity/rewards/rules'
import type { FormTask } from '@/sanity/tasks/rules'

// The shapes components receive. They say what a page shows, not how Sanity stores it:
// the mapping in ./reshape.ts is the only code that knows both. Sections are derived from the
// generated query types, changed only where the reshaping changes them.

export type { IconName }

export type SiteLink = { key: string; label: string } & (
  { kind: 'internal'; href: string } | { kind: 'external'; href: string } | { kind: 'email'; href: string } | { kind: 'demo' } | { kind: 'planned' }
)

/** The bar above the header (Site settings → Announcement bar), as the site shows it (sanity/content/announcement.ts makes it). */
export type Announcement = {
  /** Changes when the words or the link change, so a new announcement shows again to visitors who closed the old one. */
  id: string
  text: string
  link: SiteLink | null
  dismissible: boolean
}

/** The same page or post in one language, at its address there (hreflang alternates, the language switcher). */
export type Alternate = { language: string; path: string }

export type Heading = { eyebrow?: string | null; title: string; subtitle: string | null }

export type SiteSettings = {
  /** The language these settings are written in, and every link in them leads to. */
  language: string
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
  consent: { title: string; text: string; acceptLabel: string; declineLabel: string; browserRefusesNote: string; settingsLabel: string; policyLink: SiteLink }
  labels: {
    skipToContent: string
    sample: string
    planned: string
    closeMenu: string
    closeAnnouncement: string
    mainNavigation: string
    lastUpdated: string
    tableOfContents: string
    language: string
  }
  /** The site search's words (/search, and the header's link to it). */
  search: SearchCopy
  /** The product's own widget snippet; when set, the Try Demo buttons toggle it instead of the scripted demo. */
  productWidgetScriptUrl: string | null
  demoWidget: DemoWidgetCopy
  /** The bar above the header; null when it is off. */
  announcement: Announcement | null
  seo: { title: string; description: string; image: string | null }
}

/** The words of the search page ({query} and {count} are filled in where they appear), as the Studio declares them. */
export type SearchCopy = NonNullable<SiteSettingsQueryResult>['search']

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

/** Per-page search and sharing; `image` is a ready URL, null to use the drawn image. */
export type Seo = { title: string | null; description: string | null; image: string | null; noindex: boolean }

/** A section as its query returns it. */
export type RawSection = NonNullable<PageQueryResult>['sections'][number]
type RawSectionOf<T extends RawSection['_type']> = Extract<RawSection, { _type: T }>

/** Pricing tiers arrive as references and leave as priced cards. */
type PricingSection = Omit<RawSectionOf<'pricingSection'>, 'tiers' | 'labels'> & { tiers: PricingTier[] }

/** The hero's picture arrives as the conversation document and leaves ready to play. */
type HeroSection = Omit<RawSectionOf<'heroSection'>, 'visual'> & { visual: DemoConversation | null }

/** A section as its component receives it. */
export type Section = Exclude<RawSection, { _type: 'pricingSection' | 'heroSection' }> | PricingSection | HeroSection
export type SectionType = Section['_type']
export type SectionOf<T extends SectionType> = Extract<Section, { _type: T }>
export type RichTextBody = SectionOf<'richTextSection'>['body']

/** The landing and about pages: their name, sections, and their search and sharing. */
export type SectionPage = { title: string; sections: Section[]; seo: Seo; /** The languages it is published in. */ languages: string[] }

/** A page made in the Studio, at /<slug> (/<code>/<slug> in another language), with its translations. */
export type Page = SectionPage & { id: string; slug: string; language: string; alternates: Alternate[] }

export type PageListItem = { slug: string; language: string; path: string; alternates: Alternate[]; title: string; noindex: boolean; updatedAt: string }

export type Redirect = { destination: string; permanent: boolean }

/** The field error messages, from the waitlist page's content: templates with {field} and {n}. */
export interface WaitlistErrorCopy {
  errorRequired: string
  errorTooLong: string
  errorInvalidEmail: string
  errorInvalidCharacters: string
  nameInSentence: string
  emailInSentence: string
  companyInSentence: string
}

type RawWaitlistPage = NonNullable<WaitlistPageQueryResult>

/**
 * The waitlist page's copy: every field as the Studio declares it (derived, so a field added to
 * the schema arrives here with `npm run typegen`), with its link and SEO reshaped. The form's
 * error wording also satisfies the field rules' WaitlistErrorCopy.
 */
export type WaitlistPage = Omit<RawWaitlistPage, 'form' | 'seo' | 'languages' | 'email' | 'questions' | 'rewards' | 'tasks'> & {
  language: string
  /** The questions at sign-up, in the page's language (sanity/questions/rules.ts). */
  questions: FormQuestion[]
  /** The reward ladder, in the page's language (sanity/rewards/rules.ts). */
  rewards: LadderRung[]
  /** The research tasks, in the page's language (sanity/tasks/rules.ts). */
  tasks: FormTask[]
  languages: string[]
  /**
   * The e-mails' words, with the language they are written in (the e-mails' `<html lang>`, dates),
   * and the reward ladder in it (the confirmation's first rung, the reward e-mail).
   */
  email: RawWaitlistPage['email'] & { language: string; rewards: LadderRung[] }
  form: Omit<RawWaitlistPage['form'], 'privacyLink'> & { privacyLink: SiteLink } & WaitlistErrorCopy
  seo: Seo
}

/** The page a confirmation link opens (/waitlist/confirm). */
export type WaitlistConfirmPage = WaitlistPage['confirmPage']

/** A confirmed person's place, referral link and own data (on the confirmation link page). */
export type WaitlistPlacePanel = WaitlistPage['placePanel']
export type WaitlistTasksPanel = WaitlistPage['tasksPanel']
export type LeaderboardPageCopy = WaitlistPage['leaderboardPage']

/** The waitlist e-mails' words (the waitlist page's "Confirmation and erasure e-mails" section). */
export type WaitlistEmailCopy = WaitlistPage['email']

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
  joinWaitlistLabel: string
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
export type DemoWidgetContent = {
  copy: DemoWidgetCopy
  conversation: DemoConversation
  sender: string
  /** The page's language: where its waitlist button leads. */ language: string
}

type RawBlogPage = NonNullable<BlogPageQueryResult>

/** The words around the posts (Blog and changelog in the Studio). */
export type BlogCopy = Omit<RawBlogPage, 'seo' | 'changelogSeo' | 'languages'> & { language: string; languages: string[]; seo: Seo; changelogSeo: Seo }

export type PostKind = 'article' | 'changelog'

export type Author = { name: string; role: string | null; picture: SectionImage | null }

export type CategoryLink = { title: string; slug: string }

export type Category = CategoryLink & { description: string | null; language: string; alternates: Alternate[] }

/** A post as lists, feeds, the sitemap and the proxy see it: everything but its text. */
export type PostSummary = {
  id: string
  slug: string
  language: string
  /** Its page: /blog/<slug> (/<code>/blog/<slug> in another language). */
  path: string
  /** Its translations, itself included. */
  alternates: Alternate[]
  title: string
  excerpt: string
  publishedAt: string
  updatedAt: string
  kind: PostKind
  isSample: boolean
  noindex: boolean
  categories: CategoryLink[]
  authors: Author[]
}

/** The text of a post: the rich text of pages, plus code blocks. */
export type PostBody = NonNullable<PostQueryResult>['body']

/** A post's page. */
export type Post = PostSummary & { body: PostBody; readingMinutes: number; seo: Seo }

/** A post with its text, as a feed carries it. */
export type FeedPost = PostSummary & { body: PostBody }

/** One page of a list of posts (/blog, /blog/page/<n>, /blog/category/<slug>…). */
export type PostListPage = { posts: PostSummary[]; page: number; pages: number; category: Category | null; language: string }
