/**
 * The only module that knows PostHog. Components call `track()`; PostHog's code is
 * fetched only after the visitor accepts analytics, off the critical path.
 *
 * Every consented event arrives, also one raised while PostHog loads by a click that opens
 * another page: until PostHog has it, the event waits in an outbox in sessionStorage (this tab
 * only, after consent only), and whichever page of the site loads PostHog first hands it over,
 * with the time it happened. Each event has an id and leaves the outbox as it is handed over,
 * so it is sent once.
 *
 * Without NEXT_PUBLIC_POSTHOG_KEY (the local default) nothing is loaded and nothing
 * leaves the browser; in development events are printed to the console instead.
 * After a decline nothing is sent at all (rather than PostHog's cookieless mode): the
 * simplest promise to keep, and the one the GDPR badge implies.
 */
import type { PostHog } from 'posthog-js'
import { browserEnv } from '@/lib/env/browser'
import { readConsent } from './consent'
import type { EventName, EventProperties } from './events'
import { ANALYTICS_PROXY_PATH } from './proxy-path'

const KEY = browserEnv.posthogKey
const ALLOW_AUTOMATION = browserEnv.analyticsAllowAutomation

export const analyticsConfigured = Boolean(KEY)

export { ANALYTICS_PROXY_PATH }

// PostHog and what it hears of experiments, both fetched only after consent.
type Loaded = { client: PostHog; experiments: typeof import('@/components/experiments/analytics') }

let posthog: Promise<Loaded> | null = null
let loaded = false

/** Events raised before PostHog was ready, kept across a navigation in this tab. Not `ph_`: PostHog's prefix. */
export const OUTBOX_STORAGE_KEY = 'analytics:outbox'

type Pending = { id: string; event: EventName; properties: EventProperties<EventName>; at: number }

function readOutbox(): Pending[] {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(OUTBOX_STORAGE_KEY) ?? '[]')
    return Array.isArray(parsed) ? (parsed as Pending[]).filter((item) => typeof item?.id === 'string' && typeof item.event === 'string') : []
  } catch {
    return []
  }
}

function writeOutbox(items: readonly Pending[]): void {
  try {
    if (items.length) window.sessionStorage.setItem(OUTBOX_STORAGE_KEY, JSON.stringify(items.slice(-50)))
    else window.sessionStorage.removeItem(OUTBOX_STORAGE_KEY)
  } catch {
    // Storage blocked: the event still goes if PostHog loads on this page.
  }
}

function newId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`
}

/** Hands one event to PostHog, unless another page already did (it is no longer in the outbox). */
function handOver({ client, experiments }: Loaded, pending: Pending, queued: boolean): void {
  const outbox = readOutbox()
  if (queued && !outbox.some((item) => item.id === pending.id)) return
  writeOutbox(outbox.filter((item) => item.id !== pending.id))
  // A participant's every event names their variants (components/experiments/analytics.ts).
  experiments.labelEvents(client)
  // Sent now rather than batched: most clicks we record open another page (plain links, full
  // page loads), and a batch waiting for the page to hide did not survive that navigation.
  client.capture(pending.event, pending.properties, { send_instantly: true, timestamp: new Date(pending.at) })
  // The exposure of each varied section in view, with the view of its page (not a page left behind).
  if (pending.event === 'page_view' && (pending.properties as EventProperties<'page_view'>).page === window.location.pathname) experiments.sendExposures(client)
}

function optIn(client: PostHog): void {
  if (client.has_opted_out_capturing()) {
    client.set_config({ disable_persistence: false })
    client.opt_in_capturing()
  }
}

function load(key: string): Promise<Loaded> {
  posthog ??= Promise.all([import('posthog-js'), import('@/components/experiments/analytics')]).then(([{ default: client }, experiments]) => {
    client.init(key, {
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
      opt_out_useragent_filter: ALLOW_AUTOMATION,
    })
    loaded = true
    const ready = { client, experiments }
    // What earlier pages (or this one, while loading) raised and could not hand over.
    const waiting = readOutbox()
    if (readConsent() === 'granted') {
      experiments.keepConsentCookie()
      if (waiting.length) optIn(client)
      for (const pending of waiting) handOver(ready, pending, true)
    }
    return ready
  })
  return posthog
}

/**
 * Records one event. The promise resolves once PostHog has it on its way, so a link can wait for
 * its click event before the page goes away; null when nothing is recorded (no key, no consent).
 */
export function track<E extends EventName>(event: E, properties: EventProperties<E>): Promise<void> | null {
  if (!KEY) {
    if (process.env.NODE_ENV === 'development') console.info('[analytics]', event, properties)
    return null
  }
  if (readConsent() !== 'granted') return null
  const pending: Pending = { id: newId(), event, properties: properties as EventProperties<EventName>, at: Date.now() }
  const queued = !loaded
  if (queued) writeOutbox([...readOutbox(), pending])
  return load(KEY).then((ready) => {
    optIn(ready.client)
    handOver(ready, pending, queued)
  })
}

/** True once PostHog's code has loaded: until then a recorded click waits for it. */
export function trackingReady(): boolean {
  return loaded
}

/** After a decline: stop, and remove what PostHog stored on this device. */
export async function stopTracking(): Promise<void> {
  const client = (await posthog)?.client
  if (client) {
    client.opt_out_capturing()
    client.reset()
    // Our own consent record is the source of truth; PostHog keeps nothing, not even its opt-out marker.
    client.set_config({ disable_persistence: true })
  }
  writeOutbox([])
  for (const name of document.cookie.split(';').map((pair) => pair.split('=')[0]?.trim() ?? '')) {
    if (name.startsWith('ph_')) document.cookie = `${name}=; Max-Age=0; path=/`
  }
  for (const storage of [window.localStorage, window.sessionStorage]) {
    for (const key of Object.keys(storage)) if (key.startsWith('ph_') || key.startsWith('__ph')) storage.removeItem(key)
  }
}
