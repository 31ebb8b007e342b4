/**
 * What components call to record an event: `track()`. PostHog's code (./posthog.ts, the only
 * module that knows it) is fetched only after the visitor accepts analytics, off the critical path.
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
import { browserEnv } from '@/lib/env/browser'
import { readConsent } from './consent'
import type { EventName, EventProperties } from './events'
import { readOutbox, writeOutbox, type Pending } from './outbox'

const KEY = browserEnv.posthogKey
const ALLOW_AUTOMATION = browserEnv.analyticsAllowAutomation

export const analyticsConfigured = Boolean(KEY)

export { OUTBOX_STORAGE_KEY } from './outbox'

// PostHog, its settings and what it hears of experiments: one chunk, fetched only after consent.
type Loaded = typeof import('./posthog')

let posthog: Promise<Loaded> | null = null
let loaded = false

function newId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`
}

function load(key: string): Promise<Loaded> {
  posthog ??= import('./posthog').then((module) => {
    module.start(key, ALLOW_AUTOMATION)
    loaded = true
    return module
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
  return load(KEY).then((ready) => ready.handOver(pending, queued))
}

/** True once PostHog's code has loaded: until then a recorded click waits for it. */
export function trackingReady(): boolean {
  return loaded
}

/** After a decline: stop, and remove what PostHog stored on this device. */
export async function stopTracking(): Promise<void> {
  const ready = await posthog
  ready?.stop()
  writeOutbox([])
  for (const name of document.cookie.split(';').map((pair) => pair.split('=')[0]?.trim() ?? '')) {
    if (name.startsWith('ph_')) document.cookie = `${name}=; Max-Age=0; path=/`
  }
  for (const storage of [window.localStorage, window.sessionStorage]) {
    for (const key of Object.keys(storage)) if (key.startsWith('ph_') || key.startsWith('__ph')) storage.removeItem(key)
  }
}
