import 'server-only'
import { isLanguageCode } from '@/lib/i18n/languages'
import { configuredServiceClient } from '@/lib/supabase/configured'
import { copyPublishedSet, rpcFailure } from '@/lib/supabase/published-set'
import { readPublished } from '@/sanity/content/published'
import { toSiteLanguages } from '@/sanity/content/reshape'
import { siteLanguagesQuery } from '@/sanity/queries'

/**
 * Keeps the database's set of languages a sign-up may be stored in (private.waitlist_languages,
 * supabase/schemas/17_languages.sql) equal to the Languages document as published: a sign-up in any
 * other is refused, for its e-mails would link to pages nobody can open. Copied before the pages
 * change on every publish (app/api/revalidate), so a new language's form is never refused, and on
 * each scheduled outbox run (app/api/outbox/dispatch). A read or store that fails keeps the last
 * set (lib/supabase/published-set.ts); English is always among them.
 */

export type LanguageSyncDeps = {
  /** The published Languages document's entries, as sanity/queries.ts siteLanguagesQuery answers. */
  read: () => Promise<unknown>
  /** Replaces the database's set; resolves to the number of languages stored. */
  replace: (codes: string[]) => Promise<number>
}

export type LanguageSyncOutcome = { kind: 'synced'; languages: number; skipped: string[] } | { kind: 'kept'; reason: string } | { kind: 'not-configured' }

export async function syncPublishedLanguages(deps: LanguageSyncDeps): Promise<LanguageSyncOutcome> {
  const copy = await copyPublishedSet({
    what: "the site's languages",
    // No Languages document (null): the site speaks English only, as it did before languages.
    read: async () => (await deps.read()) ?? [],
    check: (answer) => {
      const entries = answer as { code?: unknown; title?: unknown }[]
      const skipped = entries
        .filter((entry) => typeof entry?.code !== 'string' || !isLanguageCode(entry.code))
        .map((entry) => `language ${JSON.stringify(entry?.code ?? null)}`)
      const valid = entries.filter((entry): entry is { code: string; title: string } => typeof entry?.code === 'string')
      return { items: toSiteLanguages(valid).map((language) => language.code), skipped }
    },
    replace: deps.replace,
  })
  return copy.kind === 'synced' ? { kind: 'synced', languages: copy.stored, skipped: copy.skipped } : copy
}

/** The sync as the deployment configures it: Sanity (or the seed) and the service-role key. */
export function configuredLanguageSync(): LanguageSyncDeps | null {
  const client = configuredServiceClient()
  if (!client) return null
  return {
    // Past every cache: the webhook arrives the moment the document is published.
    read: () => readPublished(siteLanguagesQuery),
    replace: async (codes) => {
      const { data, error, status } = await client.rpc('waitlist_replace_languages', { codes })
      if (error) throw rpcFailure('waitlist_replace_languages', error, status)
      return data
    },
  }
}

/** Runs the configured sync and logs what it did; never throws. */
export async function syncLanguages(deps: LanguageSyncDeps | null = configuredLanguageSync()): Promise<LanguageSyncOutcome> {
  if (!deps) return { kind: 'not-configured' }
  const outcome = await syncPublishedLanguages(deps)
  if (outcome.kind === 'kept') console.error(`[languages] The last set of languages a sign-up may be in is kept: ${outcome.reason}`)
  else if (outcome.kind === 'synced' && outcome.skipped.length > 0) console.warn(`[languages] Left out of the database's set: ${outcome.skipped.join(', ')}`)
  return outcome
}
