/**
 * A set published in Sanity copied into the database, replaced as a whole: the running
 * experiments (components/variants/sync.ts), the questions at sign-up
 * (components/waitlist/questions-sync.ts), the site's languages (components/waitlist/languages-sync.ts).
 * Each is copied on every publish webhook (app/api/revalidate) and on each scheduled outbox run
 * (app/api/outbox/dispatch), for a webhook that failed or never came.
 *
 * A read that fails or answers something other than a list, or a store that fails, keeps the last
 * set: an unreachable Sanity must not look like an empty one, which would refuse or drop what every
 * sign-up brings.
 */

export type PublishedSetCopy<T> = { kind: 'synced'; items: T[]; stored: number; skipped: string[] } | { kind: 'kept'; reason: string }

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

export async function copyPublishedSet<T>({
  what,
  read,
  check,
  replace,
}: {
  /** "the running experiments": for the reasons given. */
  what: string
  read: () => Promise<unknown>
  /** What the database can take, and what was left out of it (each named). */
  check: (answer: readonly unknown[]) => { items: T[]; skipped: string[] }
  /** Replaces the database's set; resolves to the number of rows stored. */
  replace: (items: T[]) => Promise<number>
}): Promise<PublishedSetCopy<T>> {
  let answer: unknown
  try {
    answer = await read()
  } catch (error) {
    return { kind: 'kept', reason: `could not read ${what}: ${message(error)}` }
  }
  if (!Array.isArray(answer)) return { kind: 'kept', reason: `the query for ${what} did not answer a list` }
  const { items, skipped } = check(answer)
  try {
    return { kind: 'synced', items, stored: await replace(items), skipped }
  } catch (error) {
    return { kind: 'kept', reason: `could not store ${what}: ${message(error)}` }
  }
}

/** A service-role call's failure as the syncs report it. */
export function rpcFailure(fn: string, error: { code?: string; message: string }, status: number): Error {
  return new Error(`${fn} failed (HTTP ${status}${error.code ? ` ${error.code}` : ''}): ${error.message}`)
}
