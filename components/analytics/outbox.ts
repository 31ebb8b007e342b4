import type { EventName, EventProperties } from './events'

/**
 * Events raised after consent but before PostHog was ready, kept across a navigation in this tab
 * (sessionStorage: this tab only). Each has an id and leaves the outbox as it is handed over, so
 * whichever page hands it over first sends it, once. Not `ph_`: PostHog's prefix.
 */
export const OUTBOX_STORAGE_KEY = 'analytics:outbox'

export type Pending = { id: string; event: EventName; properties: EventProperties<EventName>; at: number }

export function readOutbox(): Pending[] {
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(OUTBOX_STORAGE_KEY) ?? '[]')
    return Array.isArray(parsed) ? (parsed as Pending[]).filter((item) => typeof item?.id === 'string' && typeof item.event === 'string') : []
  } catch {
    return []
  }
}

export function writeOutbox(items: readonly Pending[]): void {
  try {
    if (items.length) window.sessionStorage.setItem(OUTBOX_STORAGE_KEY, JSON.stringify(items.slice(-50)))
    else window.sessionStorage.removeItem(OUTBOX_STORAGE_KEY)
  } catch {
    // Storage blocked: the event still goes if PostHog loads on this page.
  }
}
