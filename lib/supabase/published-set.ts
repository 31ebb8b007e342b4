import { configuredServiceClient } from './configured'
import type { ServiceClient } from './service'

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

/** What a set's sync reads and stores: injected in the tests, configured in the deployment. */
export type SetSyncDeps<T> = {
  /** The published set, as its Sanity query answers. */
  read: () => Promise<unknown>
  /** Replaces the database's set; resolves to the number of rows stored. */
  replace: (items: T[]) => Promise<number>
}

export type SetSyncOutcome<Count extends string> =
  ({ kind: 'synced'; skipped: string[] } & { [key in Count]: number }) | { kind: 'kept'; reason: string } | { kind: 'not-configured' }

/**
 * One set's sync, declared once: how it is read and checked, the service-role call that stores it,
 * and how its log lines and outcome name it. `syncPublished` runs it with given dependencies (the
 * unit tests), `configured` builds the deployment's, and `sync` runs that and logs; it never throws.
 */
export function definePublishedSetSync<T, Count extends string>(spec: {
  /** "[questions]": the log lines' prefix. */
  tag: string
  /** "the waitlist page's questions": for the reasons given. */
  what: string
  /** The outcome's name for the number stored, e.g. `questions: 3`. */
  count: Count
  /** "The last set of questions at sign-up is kept": logged before the reason. */
  kept: string
  /** What the query answers when nothing is published (null): a sync of an empty set, or keep. */
  whenNone?: unknown[]
  check: (answer: readonly unknown[]) => { items: T[]; skipped: string[] }
  /** Past every cache: the webhook arrives the moment the document is published. */
  readPublished: () => Promise<unknown>
  /** The service-role call that replaces the set. */
  store: (client: ServiceClient, items: T[]) => PromiseLike<{ data: unknown; error: { code?: string; message: string } | null; status: number }>
  /** The call's name, for its failure. */
  rpc: string
}) {
  const syncPublished = async (deps: SetSyncDeps<T>): Promise<SetSyncOutcome<Count>> => {
    const copy = await copyPublishedSet({
      what: spec.what,
      read: async () => (await deps.read()) ?? spec.whenNone ?? null,
      check: spec.check,
      replace: deps.replace,
    })
    return (copy.kind === 'synced' ? { kind: 'synced', [spec.count]: copy.stored, skipped: copy.skipped } : copy) as SetSyncOutcome<Count>
  }
  const configured = (): SetSyncDeps<T> | null => {
    const client = configuredServiceClient()
    if (!client) return null
    return {
      read: spec.readPublished,
      replace: async (items) => {
        const { data, error, status } = await spec.store(client, items)
        if (error) throw rpcFailure(spec.rpc, error, status)
        return data as number
      },
    }
  }
  const sync = async (deps: SetSyncDeps<T> | null = configured()): Promise<SetSyncOutcome<Count>> => {
    if (!deps) return { kind: 'not-configured' }
    const outcome = await syncPublished(deps)
    if (outcome.kind === 'kept') console.error(`${spec.tag} ${spec.kept}: ${outcome.reason}`)
    else if (outcome.kind === 'synced' && outcome.skipped.length > 0) console.warn(`${spec.tag} Left out of the database's set: ${outcome.skipped.join(', ')}`)
    return outcome
  }
  return { syncPublished, configured, sync }
}
