import 'server-only'
import { isLanguageCode } from '@/lib/i18n/languages'
import { definePublishedSetSync, type SetSyncDeps, type SetSyncOutcome } from '@/lib/supabase/published-set'
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

export type LanguageSyncDeps = SetSyncDeps<string>
export type LanguageSyncOutcome = SetSyncOutcome<'languages'>

const languageSync = definePublishedSetSync({
  tag: '[languages]',
  what: "the site's languages",
  count: 'languages',
  kept: 'The last set of languages a sign-up may be in is kept',
  // No Languages document (null): the site speaks English only, as it did before languages.
  whenNone: [],
  check: (answer) => {
    const entries = answer as { code?: unknown; title?: unknown }[]
    const skipped = entries
      .filter((entry) => typeof entry?.code !== 'string' || !isLanguageCode(entry.code))
      .map((entry) => `language ${JSON.stringify(entry?.code ?? null)}`)
    const valid = entries.filter((entry): entry is { code: string; title: string } => typeof entry?.code === 'string')
    return { items: toSiteLanguages(valid).map((language) => language.code), skipped }
  },
  readPublished: () => readPublished(siteLanguagesQuery),
  store: (client, codes) => client.rpc('waitlist_replace_languages', { codes }),
  rpc: 'waitlist_replace_languages',
})

export const syncPublishedLanguages = languageSync.syncPublished
/** The sync as the deployment configures it: Sanity (or the seed) and the service-role key. */
export const configuredLanguageSync = languageSync.configured
/** Runs the configured sync and logs what it did; never throws. */
export const syncLanguages = languageSync.sync
