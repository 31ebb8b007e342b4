import { SECTION_SCHEMAS } from '../sections/schemas'
import { campaign } from '../variants/campaign-schema'
import { experiment } from '../variants/experiment-schema'
import { aboutPage } from './documents/aboutPage'
import { blogPage } from './documents/blogPage'
import { category } from './documents/category'
import { demoConversation } from './documents/demoConversation'
import { landingPage } from './documents/landingPage'
import { notFoundPage } from './documents/notFoundPage'
import { page } from './documents/page'
import { person } from './documents/person'
import { post } from './documents/post'
import { pricingTier } from './documents/pricingTier'
import { redirect } from './documents/redirect'
import { siteLanguages } from './documents/siteLanguages'
import { siteSettings } from './documents/siteSettings'
import { waitlistPage } from './documents/waitlistPage'
import { waitlistQuestions } from './documents/waitlistQuestions'
import { waitlistRewards } from './documents/waitlistRewards'
import { waitlistTasks } from './documents/waitlistTasks'
import { link } from './objects/link'
import { seo } from './objects/seo'
import { translated } from './objects/translation'

/** Document types written in every language: one document per language, linked as translations (docs/editors.md, "Languages and translations"). */
const TRANSLATED = [
  siteSettings,
  landingPage,
  aboutPage,
  waitlistPage,
  notFoundPage,
  blogPage,
  page,
  post,
  person,
  category,
  pricingTier,
  demoConversation,
].map(translated)

export const TRANSLATED_TYPES: readonly string[] = TRANSLATED.map((type) => type.name)

// Experiments and campaign versions are one document for every language: stopping one applies everywhere at once.
// So are the questions at sign-up (a question is asked in every language or in none), the reward ladder and the research tasks.
export const schemaTypes = [
  ...TRANSLATED,
  siteLanguages,
  waitlistQuestions,
  waitlistRewards,
  waitlistTasks,
  redirect,
  experiment,
  campaign,
  link,
  seo,
  ...SECTION_SCHEMAS,
]

/** One document each, edited in place: the Studio shows them as single entries, not lists. */
export const SINGLETONS = [
  { type: 'siteSettings', title: 'Site settings' },
  { type: 'landingPage', title: 'Landing page' },
  { type: 'aboutPage', title: 'About page' },
  { type: 'waitlistPage', title: 'Waitlist page' },
  { type: 'waitlistQuestions', title: 'Questions at sign-up' },
  { type: 'waitlistRewards', title: 'Rewards for bringing friends' },
  { type: 'waitlistTasks', title: 'Research tasks' },
  { type: 'notFoundPage', title: 'Page not found (404)' },
  { type: 'blogPage', title: 'Blog and changelog' },
  { type: 'siteLanguages', title: 'Languages' },
] as const

export const SINGLETON_TYPES = new Set<string>(SINGLETONS.map((s) => s.type))

/** The singletons that are one document for every language (the others are one per language). */
export const UNTRANSLATED_SINGLETONS: ReadonlySet<string> = new Set(SINGLETONS.map((s) => s.type).filter((type) => !TRANSLATED_TYPES.includes(type)))
