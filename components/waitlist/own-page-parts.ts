'use client'

/**
 * The own page's parts that only a confirmed person's page draws (the research tasks, the
 * leaderboard choice), loaded on demand: the confirm page's first-load JavaScript stays the link
 * check's alone (tools/bench/quality-budget.ts holds /waitlist/confirm to it). The page asks for
 * them while it reads what the link opens (components/waitlist/confirm-link.tsx), so they are
 * usually in before the place is drawn, and nothing moves when they arrive.
 */

type Parts = typeof import('./own-page-parts-view')

let loading: Promise<Parts> | undefined
let loaded: Parts | null = null

/** Starts the download once; resolves to the parts (also after a failure, retried on the next call). */
export function loadOwnPageParts(): Promise<Parts> {
  loading ??= import('./own-page-parts-view').then(
    (parts) => (loaded = parts),
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}

/** The parts when already loaded, else null. */
export const ownPageParts = () => loaded
