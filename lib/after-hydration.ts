import { useSyncExternalStore } from 'react'

const noSubscription = () => () => {}

/**
 * A value only the browser knows, read once the island has hydrated: `serverValue` while React
 * hydrates (what the server drew), `read()` after. Reading it during hydration instead draws
 * another tree than the server's, and React redraws the whole page, wiping what a visitor typed
 * (e2e/waitlist.spec.ts, "typed before the script arrived").
 */
export function useAfterHydration<T>(read: () => T, serverValue: T): T {
  return useSyncExternalStore(noSubscription, read, () => serverValue)
}
