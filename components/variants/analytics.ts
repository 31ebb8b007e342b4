import type { PostHog } from 'posthog-js'
import { CONSENT_COOKIE, CONSENT_COOKIE_GRANTED, writeGrantedCookie } from '@/components/analytics/consent-cookie'
import { assignmentsFromCookies, cookieValue, isExperimentKey, isVariantKey, type Assignments } from '@/sanity/variants/assignments'
import { EXPERIMENT_ATTRIBUTE, VARIANT_ATTRIBUTE } from './marks'

/**
 * What PostHog hears of experiments, loaded with PostHog itself (after consent, off the first
 * load): each event of a participant carries `$feature/<key>` = their variant, and each page view
 * of a varied section sends PostHog's exposure event, so its experiment analysis of a feature flag
 * with the same key works without PostHog evaluating any flag.
 */

/** `$feature/<experiment>` = variant, PostHog's own property names for a flag's value. */
export const featureProperties = (assignments: Assignments): Record<string, string> =>
  Object.fromEntries(Object.entries(assignments).map(([key, variant]) => [`$feature/${key}`, variant]))

/** The experiments cookie's variants, registered on every later event (PostHog's super properties). */
export function labelEvents(client: Pick<PostHog, 'register'>): void {
  const properties = featureProperties(assignmentsFromCookies(document.cookie))
  if (Object.keys(properties).length > 0) client.register(properties)
}

/** The varied sections a page shows, as the server marked them: each experiment once. */
export function exposuresIn(root: ParentNode): { experiment: string; variant: string }[] {
  const seen = new Map<string, string>()
  for (const element of root.querySelectorAll(`[${EXPERIMENT_ATTRIBUTE}]`)) {
    const experiment = element.getAttribute(EXPERIMENT_ATTRIBUTE)
    const variant = element.getAttribute(VARIANT_ATTRIBUTE)
    if (isExperimentKey(experiment) && isVariantKey(variant) && !seen.has(experiment)) seen.set(experiment, variant)
  }
  return [...seen].map(([experiment, variant]) => ({ experiment, variant }))
}

/** One exposure per varied section of the page in view, sent with its page view. */
export function sendExposures(client: Pick<PostHog, 'capture'>, root: ParentNode = document): void {
  for (const { experiment, variant } of exposuresIn(root)) {
    client.capture('$feature_flag_called', { $feature_flag: experiment, $feature_flag_response: variant }, { send_instantly: true })
  }
}

/**
 * A visitor who accepted before the consent cookie existed has only the banner's record: the
 * cookie is written when PostHog loads for them, so the proxy can count them in from the next page.
 */
export function keepConsentCookie(): void {
  if (cookieValue(document.cookie, CONSENT_COOKIE) !== CONSENT_COOKIE_GRANTED) writeGrantedCookie()
}
