/**
 * Field rules of a waitlist entry, shared by the sign-up form and mirrored by
 * the database (supabase/schemas/01_rules.sql, 02_waitlist.sql). The two must agree: an
 * input the form accepts must never be refused by a database constraint, and
 * the other way round (tests/integration/waitlist-rules-agree.test.ts checks
 * it with generated inputs against the real migration).
 *
 * To keep them in step this module avoids engine-specific notions:
 * - lengths count Unicode code points, like Postgres' char_length(), not
 *   UTF-16 units like String#length (an emoji is 1 for Postgres, 2 for JS);
 * - "whitespace" is the explicit character list below, used both for
 *   trimming and in the e-mail pattern, instead of JS \s / String#trim and
 *   Postgres [[:space:]] / btrim, which all disagree at the edges.
 *
 * E-mail addresses are normalised and judged by ./email.ts (one address, one spelling).
 *
 * Browser-safe.
 */
import { isPlausibleWaitlistEmail, normalizeWaitlistEmail } from './email'
import type { WaitlistErrorCopy } from '@/sanity/content/types'

export { WAITLIST_EMAIL_PATTERN, WAITLIST_EMAIL_PATTERN_SOURCE } from './email'

export const WAITLIST_LIMITS = { name: 100, email: 254, project: 200 } as const

/**
 * The characters trimmed from both ends of every field, identical to the list
 * in public.waitlist_trim() in the migration. It is the set String#trim
 * removes in ES2023 (tab, line feed, vertical tab, form feed, carriage return,
 * space, no-break space, ogham space, en quad..hair space, line and paragraph
 * separators, narrow no-break space, medium mathematical space, ideographic
 * space, byte order mark), written out so it cannot drift with Unicode versions.
 */
export const WAITLIST_WHITESPACE =
  '\t\n\v\f\r \u00A0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF'

/** What the form holds. `company` is optional and becomes the row's `project`. */
export interface WaitlistFormInput {
  name: string
  email: string
  company?: string | null
}

/** What is inserted into public.waitlist. */
export interface WaitlistRow {
  name: string
  email: string
  project: string
}

export type WaitlistFieldError = 'required' | 'too_long' | 'invalid_email' | 'invalid_characters'

export interface WaitlistFieldErrors {
  name?: WaitlistFieldError
  email?: WaitlistFieldError
  company?: WaitlistFieldError
}

export type WaitlistValidation = { ok: true; row: WaitlistRow } | { ok: false; errors: WaitlistFieldErrors; row: WaitlistRow }

const FIELD_LIMITS: Record<keyof WaitlistFieldErrors, number> = {
  name: WAITLIST_LIMITS.name,
  email: WAITLIST_LIMITS.email,
  company: WAITLIST_LIMITS.project,
}

/** The message to show next to the field, in the content's words. */
export function waitlistErrorMessage(field: keyof WaitlistFieldErrors, error: WaitlistFieldError, copy: WaitlistErrorCopy): string {
  const named = { name: copy.nameInSentence, email: copy.emailInSentence, company: copy.companyInSentence }[field]
  const template = {
    required: copy.errorRequired,
    too_long: copy.errorTooLong,
    invalid_email: copy.errorInvalidEmail,
    invalid_characters: copy.errorInvalidCharacters,
  }[error]
  return template.replaceAll('{field}', named).replaceAll('{n}', String(FIELD_LIMITS[field]))
}

const WHITESPACE = new Set(WAITLIST_WHITESPACE)

/** Trims exactly the characters public.waitlist_trim() trims. */
export function trimWaitlistText(value: string): string {
  let start = 0
  let end = value.length
  // Every listed character is a single UTF-16 unit, so index walking is safe.
  while (start < end && WHITESPACE.has(value[start] as string)) start++
  while (end > start && WHITESPACE.has(value[end - 1] as string)) end--
  return value.slice(start, end)
}

/**
 * Characters that show nothing by themselves: Unicode's Default_Ignorable_Code_Point (soft
 * hyphen, combining grapheme joiner, Arabic letter mark, the Hangul fillers U+115F, U+1160,
 * U+3164 and U+FFA0, the Khmer inherent vowels, the Mongolian variation selectors and vowel
 * separator U+180E, zero-width space, non-joiner and joiner, direction marks and controls, word
 * joiner and invisible operators, variation selectors, the byte order mark, the shorthand and
 * musical format controls, the tag characters U+E0020–U+E007F and the rest of their block), plus
 * U+2800 BRAILLE PATTERN BLANK, which no font draws. Inside text they stay (a soft hyphen in a
 * long word, ZWNJ in a Persian name, ZWJ, variation selectors and tags in an emoji sequence): only
 * text made of them and whitespace alone is blank (cleanWaitlistText).
 *
 * Written in PostgreSQL's escapes (\U for code points past U+FFFF) and copied verbatim into
 * waitlist_rules.clean_text() in supabase/schemas/01_rules.sql; tests/unit/waitlist-rules.test.ts
 * holds it to the pinned Node's Unicode.
 */
export const WAITLIST_INVISIBLE_CLASS =
  '\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u206F\\u2800\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0\\uFFF0-\\uFFF8' +
  '\\U0001BCA0-\\U0001BCA3\\U0001D173-\\U0001D17A\\U000E0000-\\U000E0FFF'

const INVISIBLE = new RegExp(`[${WAITLIST_INVISIBLE_CLASS.replace(/\\U0*([0-9A-F]+)/g, '\\u{$1}')}]`, 'gu')

/**
 * What the database stores for a name, a company or a short answer (waitlist_rules.clean_text):
 * the value trimmed, or '' when it is blank, nothing left once whitespace and the invisible
 * characters above are taken out. So a blank name is a missing name ("required") and a blank
 * answer no answer, whichever invisible character it is made of, on both sides alike.
 */
export function cleanWaitlistText(value: string): string {
  return trimWaitlistText(value.replace(INVISIBLE, '')) === '' ? '' : trimWaitlistText(value)
}

/** Length as Postgres' char_length() counts it: code points. */
export function codePointLength(value: string): number {
  let count = 0
  for (const _ of value) count++
  return count
}

/**
 * What a name or company may not contain, identical to waitlist_rules.plain_text() in
 * supabase/schemas/01_rules.sql: C0 and C1 controls (line breaks and tabs among them), the line
 * and paragraph separators, bidi controls and isolates, zero-width space, word joiner and the
 * invisible operators, the byte order mark and the interlinear annotation characters. They let a
 * name forge lines and fields wherever it is shown (an e-mail, Slack). Joiners stay: Persian
 * names and emoji sequences need them.
 */
export const PLAIN_TEXT_FORBIDDEN = /[\u0000-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u2028-\u202E\u2060-\u206F\uFEFF\uFFF9-\uFFFB]/

// Postgres text cannot hold U+0000, and a lone surrogate cannot be encoded as
// UTF-8 (JSON.stringify keeps it as an escape that Postgres' JSON parser refuses).
export const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Text the plain-text rule lets through and Postgres can store: a name, a company, a short answer. */
export const isPlainWaitlistText = (value: string) => !UNSTORABLE.test(value) && !PLAIN_TEXT_FORBIDDEN.test(value)

/** What the database stores for this input: trimmed fields (a blank one empty), the e-mail in its one spelling. */
export function normalizeWaitlistInput(input: WaitlistFormInput): WaitlistRow {
  return {
    name: cleanWaitlistText(input.name ?? ''),
    email: normalizeWaitlistEmail(input.email ?? '', trimWaitlistText),
    project: cleanWaitlistText(input.company ?? ''),
  }
}

export function validateWaitlistInput(input: WaitlistFormInput): WaitlistValidation {
  const row = normalizeWaitlistInput(input)
  const errors: WaitlistFieldErrors = {}

  if (!isPlainWaitlistText(row.name)) errors.name = 'invalid_characters'
  else if (row.name === '') errors.name = 'required'
  else if (codePointLength(row.name) > WAITLIST_LIMITS.name) errors.name = 'too_long'

  if (UNSTORABLE.test(row.email)) errors.email = 'invalid_characters'
  else if (row.email === '') errors.email = 'required'
  else if (codePointLength(row.email) > WAITLIST_LIMITS.email) errors.email = 'too_long'
  else if (!isPlausibleWaitlistEmail(row.email)) errors.email = 'invalid_email'

  if (!isPlainWaitlistText(row.project)) errors.company = 'invalid_characters'
  else if (codePointLength(row.project) > WAITLIST_LIMITS.project) errors.company = 'too_long'

  return Object.keys(errors).length === 0 ? { ok: true, row } : { ok: false, errors, row }
}
