import { readFileSync } from 'node:fs'
import { parseNdjson, type SeedDocument } from '../sanity/seed/dataset'
import type { AllSanitySchemaTypes, internalGroqTypeReferenceTo } from '../sanity/types.generated'

/**
 * The copy the end-to-end tests expect, read from the seed dataset the test build serves
 * (sanity/seed/production.ndjson, assembled from sanity/seed/documents/*.json), so a marketer's
 * edit to the seed never breaks a test that is not about that edit.
 *
 * Documents are typed by the generated Sanity types, and read through a strict view: a field the
 * seed lacks throws at once with the document's id and the field's path (`seed document
 * "waitlistPage" has no form.submitLabel`), instead of matching `undefined` against the page.
 * A field that may be absent is tested with `in` (`'followUp' in reply`), which never throws.
 *
 * The few rules the site applies to copy before showing it (tokens, `{n}` placeholders, prices,
 * page titles, dates) are restated below in their simplest form, on purpose not imported from the
 * site's code: a test that shared the code's formatting would not notice it break.
 */

export const SEED_PATH = 'sanity/seed/production.ndjson'

type DocumentType = Extract<AllSanitySchemaTypes, { _id: string }>
type DocumentTypeName = DocumentType['_type']
/** A document as the seed stores it: Sanity adds the timestamps and revision on import. */
export type Seeded<K extends DocumentTypeName> = Omit<Extract<DocumentType, { _type: K }>, '_createdAt' | '_updatedAt' | '_rev'>
type Reference = { _ref: string; [internalGroqTypeReferenceTo]?: string }
type ReferenceTarget<R> = R extends { [internalGroqTypeReferenceTo]?: infer K } ? (K extends DocumentTypeName ? Seeded<K> : never) : never
type FooterLink = Seeded<'siteSettings'>['footer']['legalLinks'][number]
type Sectioned = { sections: readonly { _type: string }[] }
type SectionOf<D extends Sectioned, T extends string> = Extract<D['sections'][number], { _type: T }>

// Keys the runtime and test libraries probe on any object (promises, JSON, matchers, React):
// absent on purpose, never a missing field.
const PROBED = new Set(['then', 'toJSON', 'asymmetricMatch', 'nodeType', 'tagName', '$$typeof', 'constructor', 'inspect'])

/** Reads `value` so that any property it lacks throws, naming the document and the path. */
function strict<T>(value: T, id: string, path: string, views: WeakMap<object, unknown>): T {
  if (value === null || typeof value !== 'object') return value
  const known = views.get(value)
  if (known) return known as T
  const view = new Proxy(value, {
    get(target, key, receiver) {
      const found: unknown = Reflect.get(target, key, receiver)
      if (typeof key === 'symbol' || PROBED.has(key) || key.startsWith('@@')) return found
      const at = Array.isArray(target) ? `${path}[${key}]` : path ? `${path}.${key}` : key
      if (found === undefined && !(key in target))
        throw new Error(`seed document "${id}" has no ${at} (${SEED_PATH}; sources in sanity/seed/documents/${id}.json)`)
      return strict(found, id, at, views)
    },
  })
  views.set(value, view)
  return view as T
}

/** The seed's copy, from `file` (the seed dataset unless a test names another). */
export function loadSeedCopy(file = SEED_PATH) {
  const documents = parseNdjson(readFileSync(file, 'utf8'), file)
  const views = new WeakMap<object, unknown>()

  /** The published document `id`, of type `type`. */
  function doc<K extends DocumentTypeName>(id: string, type: K): Seeded<K> {
    const found = documents.find((candidate) => candidate._id === id)
    if (!found) throw new Error(`the seed has no document "${id}" (${file})`)
    if (found._type !== type) throw new Error(`seed document "${id}" is a ${found._type}, not a ${type}`)
    return strict(found as unknown as Seeded<K>, id, '', views)
  }

  const settings = doc('siteSettings', 'siteSettings')

  return {
    /** Every document as stored, for tests that walk the whole dataset. */
    documents: documents as readonly SeedDocument[],
    doc,
    settings,
    landing: doc('landingPage', 'landingPage'),
    about: doc('aboutPage', 'aboutPage'),
    waitlist: doc('waitlistPage', 'waitlistPage'),
    notFound: doc('notFoundPage', 'notFoundPage'),
    blog: doc('blogPage', 'blogPage'),
    /** The seed's posts, newest first. */
    posts: documents
      .filter((candidate) => candidate._type === 'post' && (candidate as { language?: string }).language !== 'de')
      .map((candidate) => doc(candidate._id, 'post'))
      .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt)),

    /** The header's label for the link to `path` (a top-level link or one under Resources). */
    navLabel(path: string): string {
      const link = [...settings.navigation.links, ...settings.navigation.resources].find((candidate) => 'path' in candidate && candidate.path === path)
      if (!link) throw new Error(`seed document "siteSettings" has no navigation link to ${path}`)
      return link.label
    },

    /** The footer's label for its first link (column or legal) that `matches`. */
    footerLabel(matches: (link: FooterLink) => boolean): string {
      const link = [...settings.footer.columns.flatMap((column) => column.links), ...settings.footer.legalLinks].find(matches)
      if (!link) throw new Error('seed document "siteSettings" has no such footer link')
      return link.label
    },

    /** The document a reference points to, typed by the reference's target. */
    deref<R extends Reference>(reference: R): ReferenceTarget<R> {
      const found = documents.find((candidate) => candidate._id === reference._ref)
      if (!found) throw new Error(`the seed has no document "${reference._ref}", which a reference names`)
      return strict(found as unknown as ReferenceTarget<R>, found._id, '', views)
    },

    /** A page's first section of `type` (and, if given, with that anchor id). */
    section<D extends Sectioned, T extends D['sections'][number]['_type']>(page: D, type: T, anchorId?: string): SectionOf<D, T> {
      const found = page.sections.find(
        (section) => section._type === type && (anchorId === undefined || ('anchorId' in section && section.anchorId === anchorId)),
      )
      if (!found) throw new Error(`the seed page has no ${type}${anchorId ? ` with anchor id "${anchorId}"` : ''}`)
      return found as SectionOf<D, T>
    },

    /** Copy with Site settings' tokens replaced, as every page shows it. */
    withTokens(text: string): string {
      return text.split('{{usageClaim}}').join(settings.usageClaim).split('{{contactEmail}}').join(settings.contact.generalEmail)
    },

    /** A fixed page's or a Studio page's browser title. */
    pageTitle(title: string): string {
      return `${title} | ${settings.siteName}`
    },

    /** A tier's price as its card shows it: the free label, or whole dollars. */
    price(tier: Seeded<'pricingTier'>, freeLabel: string): string {
      if (tier.price === 0) return freeLabel
      if (tier.currency !== 'USD') throw new Error(`this helper formats US dollars only, not ${tier.currency}`)
      return `$${tier.price}`
    },

    /** A page header's "Last updated" line, e.g. "Last updated 23 November 2026". */
    lastUpdated(isoDate: string): string {
      const date = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(`${isoDate}T00:00:00Z`),
      )
      return `${settings.labels.lastUpdated} ${date}`
    },
  }
}

export type SeedCopy = ReturnType<typeof loadSeedCopy>

/** Fills `{name}` placeholders the way copy in Sanity writes them. */
export function withValues(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, key: string) => (key in values ? String(values[key]) : match))
}

/** A regular expression matching `text` literally. */
export function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * The seed the test build serves. SEED_COPY_PATH names another dataset: only the helper's own test
 * uses it (tests/unit/e2e-seed-copy.test.ts), to list the specs against a seed with a field removed.
 */
export const copy = loadSeedCopy(process.env.SEED_COPY_PATH || SEED_PATH)
