/**
 * One address, one spelling: how a waitlist e-mail is normalised and which addresses are
 * plausible. The database does the same in waitlist_rules.normalize_email() and
 * waitlist_rules.email_plausible() (supabase/schemas/01_rules.sql); the
 * character classes below are written with \u escapes that both JavaScript (u flag) and
 * Postgres' regular expressions read the same way, and the migration carries them verbatim.
 * tests/integration/waitlist-email-agree.test.ts checks the two against each other on a
 * shared list of cases and on generated input, and the punycode against Node's
 * url.domainToASCII.
 *
 * Normalising: strip invisible characters (soft hyphen, zero-width space and joiners, word
 * joiner, variation selectors, byte order mark); an address holding an unsettled character
 * (EMAIL_UNSETTLED_RANGES) is only trimmed, and never plausible; otherwise apply NFKC (full-width and mathematical
 * letters become plain ones, composed and decomposed accents become one), strip again, trim,
 * then lower-case the domain and encode each non-ASCII label as IDNA punycode (xn--). The
 * local part keeps its case; uniqueness ignores case anyway (lower(email)).
 *
 * Plausible: a local part of dot-separated atoms without spaces, controls, quotes, brackets,
 * angle brackets, commas, semicolons, colons, backslashes or bidirectional controls; a domain
 * of two or more LDH labels (letters, digits, hyphens, 1-63 characters, no hyphen at either
 * end) whose last label starts with a letter. The apostrophe stays allowed (o'brien@...).
 *
 * Browser-safe: no imports.
 */

/** Removed wherever they appear: they change the bytes, not what a person sees. */
export const EMAIL_INVISIBLE_CLASS = '\\u00AD\\u034F\\u180B-\\u180F\\u200B-\\u200D\\u2060-\\u2064\\uFE00-\\uFE0F\\uFEFF'

/**
 * Never part of a plausible address, and never punycoded into one: controls, spaces,
 * bidirectional and other format controls, Unicode quotes and brackets, private use, specials.
 */
export const EMAIL_FORBIDDEN_CLASS =
  '\\u0000-\\u0020\\u007F-\\u00A0\\u00AB\\u00BB\\u061C\\u1680\\u2000-\\u200F\\u2018-\\u201F\\u2028-\\u202F\\u2039\\u203A\\u205F-\\u206F' +
  '\\u2329\\u232A\\u27E8-\\u27EF\\u3000\\u3008-\\u3011\\u3014-\\u301B\\uE000-\\uF8FF\\uFFF0-\\uFFFF'

/** ASCII that has no place in a local part: "(),.:;<>@[\]` and braces, pipe (dot handled apart). */
const LOCAL_ASCII_FORBIDDEN = '\\u0022\\u0028\\u0029\\u002C\\u002E\\u003A\\u003B\\u003C\\u003E\\u0040\\u005B\\u005C\\u005D\\u0060\\u007B\\u007C\\u007D'

const ATOM = `[^${EMAIL_FORBIDDEN_CLASS}${LOCAL_ASCII_FORBIDDEN}]+`
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?'
const TOP_LABEL = '[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?'

/** The stored form's shape (after normalisation); the database's waitlist_email_format check uses this source. */
export const WAITLIST_EMAIL_PATTERN_SOURCE = `^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+${TOP_LABEL}$`
export const WAITLIST_EMAIL_PATTERN = new RegExp(WAITLIST_EMAIL_PATTERN_SOURCE, 'u')

/** RFC 1035: a domain name is at most 253 characters written out. */
export const MAX_DOMAIN_LENGTH = 253

/**
 * Characters the site's engine and the database's spell differently: assigned after Unicode 14.0
 * (PostgreSQL 15's tables), with an NFKC form, a lower case or a combining class that is not
 * themselves. An address carrying one is not normalised and not plausible, on both sides; written
 * by tools/db/unicode-unsettled.ts for the pinned Node's Unicode version below (hex ranges).
 */
export const EMAIL_UNSETTLED_UNICODE = '17.0'
export const EMAIL_UNSETTLED_RANGES =
  '897 1ACF-1ADD 1AE0-1AEB 1C89 A7CB-A7CC A7CE A7D2 A7D4 A7DA A7DC A7F1 105C9 105E4 10D50-10D65 10D69-10D6D 10EFA-10EFB 10EFD-10EFF 11383 11385 1138E 11391 113C5 113C7-113C8 113CE-113D0 11F41-11F42 16121-16128 1612F 16D68-16D6A 16EA0-16EB8 1CCD6-1CCF9 1E030-1E06D 1E08F 1E4EC-1E4EF 1E5EE-1E5EF 1E6E3 1E6E6 1E6EE-1E6EF 1E6F5'

const UNSETTLED = new RegExp(
  `[${EMAIL_UNSETTLED_RANGES.split(' ')
    .map((range) => range.replace(/[0-9A-F]+/g, (code) => `\\u{${code}}`))
    .join('')}]`,
  'u',
)
const INVISIBLE = new RegExp(`[${EMAIL_INVISIBLE_CLASS}]`, 'gu')
const FORBIDDEN = new RegExp(`[${EMAIL_FORBIDDEN_CLASS}]`, 'u')
// Ideographic full stops separate labels like "." (UTS 46); NFKC already made U+FF0E a ".".
const IDEOGRAPHIC_STOP = /\u3002/gu
const ASCII_ONLY = /^[\u0000-\u007F]*$/u

const BASE = 36
const T_MIN = 1
const T_MAX = 26
const SKEW = 38
const DAMP = 700

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : Math.floor(delta / 2)
  d += Math.floor(d / points)
  let k = 0
  while (d > ((BASE - T_MIN) * T_MAX) / 2) {
    d = Math.floor(d / (BASE - T_MIN))
    k += BASE
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW))
}

function digit(d: number): string {
  return String.fromCharCode(d < 26 ? 97 + d : 22 + d)
}

/** RFC 3492 punycode of one label (without the xn-- prefix). */
export function punycodeEncode(label: string): string {
  const points = Array.from(label, (char) => char.codePointAt(0) as number)
  let output = points
    .filter((p) => p < 128)
    .map((p) => String.fromCharCode(p))
    .join('')
  const basic = output.length
  let handled = basic
  if (basic > 0) output += '-'
  let n = 128
  let delta = 0
  let bias = 72
  while (handled < points.length) {
    const m = Math.min(...points.filter((p) => p >= n))
    delta += (m - n) * (handled + 1)
    n = m
    for (const p of points) {
      if (p < n) delta++
      if (p === n) {
        let q = delta
        for (let k = BASE; ; k += BASE) {
          const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias
          if (q < t) break
          output += digit(t + ((q - t) % (BASE - t)))
          q = Math.floor((q - t) / (BASE - t))
        }
        output += digit(q)
        bias = adapt(delta, handled + 1, handled === basic)
        delta = 0
        handled++
      }
    }
    delta++
    n++
  }
  return output
}

/** A label as it is stored: ASCII as is, otherwise xn--punycode unless it holds a forbidden character. */
function encodeLabel(label: string): string {
  if (ASCII_ONLY.test(label) || FORBIDDEN.test(label)) return label
  return `xn--${punycodeEncode(label)}`
}

/** The whitespace trim of rules.ts, passed in to keep this module free of imports. */
export function normalizeWaitlistEmail(value: string, trim: (text: string) => string): string {
  const visible = value.replace(INVISIBLE, '')
  if (UNSETTLED.test(visible)) return trim(visible)
  const text = trim(visible.normalize('NFKC').replace(INVISIBLE, ''))
  const at = text.lastIndexOf('@')
  if (at < 0) return text
  const domain = text
    .slice(at + 1)
    .toLowerCase()
    .replace(IDEOGRAPHIC_STOP, '.')
    .split('.')
    .map(encodeLabel)
    .join('.')
  return `${text.slice(0, at)}@${domain}`
}

/** Whether a normalised address is plausible (see the module comment). */
export function isPlausibleWaitlistEmail(normalized: string): boolean {
  if (!WAITLIST_EMAIL_PATTERN.test(normalized) || UNSETTLED.test(normalized)) return false
  return normalized.length - normalized.lastIndexOf('@') - 1 <= MAX_DOMAIN_LENGTH
}

const MAILBOX_DOMAINS: Readonly<Record<string, string>> = {
  'googlemail.com': 'gmail.com',
  'protonmail.com': 'proton.me',
  'protonmail.ch': 'proton.me',
  'pm.me': 'proton.me',
  'me.com': 'icloud.com',
  'mac.com': 'icloud.com',
}
const PLUS_TAG_DOMAINS = new Set(['gmail.com', 'outlook.com', 'hotmail.com', 'hotmail.co.uk', 'hotmail.fr', 'live.com', 'msn.com', 'proton.me', 'fastmail.com'])

/**
 * waitlist_rules.mailbox_key of supabase/schemas/01_rules.sql, for a normalised address: one inbox
 * however it is spelt (googlemail.com is gmail.com, Gmail ignores dots, plus tags dropped where the
 * provider documents them). The import's duplicate check (tools/owner/import.ts) says which line a
 * row repeats; tests/integration/waitlist-import-db.test.ts holds the two equal.
 */
export function mailboxKey(normalized: string): string {
  const address = normalized.toLowerCase()
  const at = address.lastIndexOf('@')
  if (at < 0) return address
  let local = address.slice(0, at)
  const given = address.slice(at + 1)
  const domain = MAILBOX_DOMAINS[given] ?? given
  if (PLUS_TAG_DOMAINS.has(domain)) local = local.split('+')[0]!
  if (domain === 'gmail.com') local = local.replaceAll('.', '')
  return `${local}@${domain}`
}
