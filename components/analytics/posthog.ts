import posthog, { type PostHog } from 'posthog-js'
import * as experiments from '@/components/variants/analytics'
import { readConsent } from './consent'
import type { EventProperties } from './events'
import { readOutbox, writeOutbox, type Pending } from './outbox'
import { ANALYTICS_PROXY_PATH } from './proxy-path'
import { watchWebVitals } from './web-vitals'

/**
 * PostHog itself and what it hears of experiments: one chunk, fetched by ./client.ts only after
 * the visitor accepted, so none of it (not even its settings) weighs on a page's first load.
 */

/** Hands one event to PostHog, unless another page already did (it is no longer in the outbox). */
export function handOver(pending: Pending, queued: boolean): void {
  optIn(posthog)
  const outbox = readOutbox()
  if (queued && !outbox.some((item) => item.id === pending.id)) return
  writeOutbox(outbox.filter((item) => item.id !== pending.id))
  // A participant's every event names their variants (components/variants/analytics.ts).
  experiments.labelEvents(posthog)
  // Sent now rather than batched: most clicks we record open another page (plain links, full
  // page loads), and a batch waiting for the page to hide did not survive that navigation.
  posthog.capture(pending.event, pending.properties, { send_instantly: true, timestamp: new Date(pending.at) })
  // The exposure of each varied section in view, with the view of its page (not a page left behind).
  if (pending.event === 'page_view' && (pending.properties as EventProperties<'page_view'>).page === window.location.pathname)
    experiments.sendExposures(posthog)
}

function optIn(client: PostHog): void {
  if (client.has_opted_out_capturing()) {
    client.set_config({ disable_persistence: false })
    client.opt_in_capturing()
  }
}

/** Starts PostHog (EU, through our own /ingest), then hands over what earlier pages left waiting. */
export function start(key: string, allowAutomation: boolean): void {
  posthog.init(key, {
    api_host: ANALYTICS_PROXY_PATH,
    ui_host: 'https://eu.posthog.com',
    defaults: '2025-11-30',
    // The spec's events only: our own page_view, no autocapture, replays, surveys or flags.
    capture_pageview: false,
    capture_pageleave: false,
    autocapture: false,
    disable_session_recording: true,
    disable_surveys: true,
    advanced_disable_flags: true,
    disable_external_dependency_loading: true,
    person_profiles: 'identified_only',
    persistence: 'localStorage+cookie',
    opt_out_useragent_filter: allowAutomation,
  })
  if (readConsent() !== 'granted') return
  experiments.keepConsentCookie()
  for (const pending of readOutbox()) handOver(pending, true)
  // Most metrics settle as the page hides: sent by beacon, which outlives the page; and only
  // while the visitor still agrees (a decline since stops PostHog too, ./client.ts stopTracking).
  watchWebVitals((properties) => {
    if (readConsent() !== 'granted') return
    experiments.labelEvents(posthog)
    posthog.capture('web_vital', properties, { send_instantly: true, transport: 'sendBeacon' })
  })
}

/** After a decline: PostHog stops and forgets; our own consent record is the source of truth. */
export function stop(): void {
  posthog.opt_out_capturing()
  posthog.reset()
  // PostHog keeps nothing, not even its opt-out marker.
  posthog.set_config({ disable_persistence: true })
}
