/**
 * The product-analytics events of the spec, typed. This module is the catalogue: which
 * event exists, which properties it carries, and which button sends which location.
 * Nothing here knows PostHog; ./client.ts is the only module that does.
 */

/** Where a "Start Free Trial"-style button sits. The about page's button is 'about_cta'. */
export const START_TRIAL_LOCATIONS = {
  navigation: 'Header "Start Free Trial" (desktop)',
  navigation_mobile: 'Phone menu "Start Free Trial"',
  hero: 'Landing hero primary button',
  pricing: "A pricing tier's button (Get Started - $29/month)",
  pricing_cta: 'The "Start Free Trial" link under the pricing tiers',
  cta: 'Closing call to action on the landing page',
  about_cta: 'Closing call to action on the about page',
  demo: 'The demo widget\'s last step "Join the waitlist"',
} as const

/** Where a "Try Demo"-style button sits (Try Demo, See How It Works, Try Demo First). */
export const DEMO_LOCATIONS = {
  navigation: 'Header "Try Demo" (desktop)',
  navigation_mobile: 'Phone menu "Try Demo"',
  hero: 'Landing hero "See How It Works"',
  cta: 'Closing call to action "Try Demo First"',
  footer: 'Footer Product column "Try Demo"',
  announcement: 'The announcement bar, when its link opens the demo',
} as const

export type StartTrialLocation = keyof typeof START_TRIAL_LOCATIONS
export type DemoLocation = keyof typeof DEMO_LOCATIONS

export type AnalyticsEvents = {
  navigation_click: { menu_item: string }
  start_free_trial_click: { button_location: StartTrialLocation }
  try_demo_click: { button_location: DemoLocation }
  /** `answer_<key>`: the option key(s) chosen for each question with options; never a short answer. */
  waitlist_join: { has_company: boolean; email_domain: string } & Record<`answer_${string}`, string | string[]>
  /** The visitor confirmed their address with the e-mailed link. No properties: nothing personal. */
  waitlist_confirmed: Record<string, never>
  /** A confirmed person saw their place in line. No place, code or count: nothing about them. */
  waitlist_position_viewed: Record<string, never>
  /** A person copied (or shared) their referral link; `method` says which. */
  referral_link_copied: { method: 'copy' | 'share' }
  contact_us_click: Record<string, never>
  /** `locale`: the language the page is in (its <html lang>), so views split by language. */
  page_view: { page: string; locale: string }
  /**
   * One of a page load's Web Vitals, measured in the visitor's browser (./web-vitals.ts): never a
   * click's event, so not in EVENT_NAMES. `value` in milliseconds (CLS: its score); `route` the
   * route's template (`/blog/[slug]`), `locale` the page's language.
   */
  web_vital: {
    metric: 'CLS' | 'FCP' | 'INP' | 'LCP' | 'TTFB'
    value: number
    rating: 'good' | 'needs-improvement' | 'poor'
    route: string
    locale: string
    navigation_type: string
  }
}

export type EventName = keyof AnalyticsEvents
export type EventProperties<E extends EventName> = AnalyticsEvents[E]
export type AnalyticsEvent = { [E in EventName]: { event: E; properties: AnalyticsEvents[E] } }[EventName]

export const EVENT_NAMES = [
  'navigation_click',
  'start_free_trial_click',
  'try_demo_click',
  'waitlist_join',
  'waitlist_confirmed',
  'waitlist_position_viewed',
  'referral_link_copied',
  'contact_us_click',
  'page_view',
] as const satisfies readonly EventName[]

/** The domain of an e-mail, lower-cased: the only part of a sign-up analytics may see. */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@')
  return at === -1
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase()
}

/** A sign-up as analytics sees it: never the name, the e-mail or the company. */
export function waitlistJoinProperties(
  input: { email: string; company?: string | null },
  answers: Record<`answer_${string}`, string | string[]> = {},
): EventProperties<'waitlist_join'> {
  return { ...answers, has_company: (input.company ?? '').trim() !== '', email_domain: emailDomain(input.email) }
}

export const TRACK_ATTRIBUTE = 'data-track'

/**
 * Attributes that make any link or button record an event when clicked. Server components
 * can use this: one delegated listener in the analytics island reads them, so a tracked
 * link needs no JavaScript of its own.
 */
export function trackOn<E extends EventName>(event: E, properties: EventProperties<E>): { [TRACK_ATTRIBUTE]: string } {
  return { [TRACK_ATTRIBUTE]: JSON.stringify({ event, properties }) }
}

/** Reads a `data-track` value back; anything malformed or unknown is ignored. */
export function parseTrackAttribute(value: string | null): AnalyticsEvent | null {
  if (!value) return null
  try {
    const parsed = JSON.parse(value) as { event?: unknown; properties?: unknown }
    if (typeof parsed.event !== 'string' || !(EVENT_NAMES as readonly string[]).includes(parsed.event)) return null
    if (!parsed.properties || typeof parsed.properties !== 'object') return null
    return parsed as AnalyticsEvent
  } catch {
    return null
  }
}
