/**
 * The rule for "plain text a reader sees": titles, summaries and names that go to pages, feeds,
 * share images, search results and e-mail subjects. Shared by the Studio's validation (and so
 * `npm run content:publish`) and the renderers, free of Sanity and Next so tests run it directly.
 *
 * Refused: control characters (a word processor's Shift+Enter pastes a vertical tab, which no XML
 * feed may carry), bidirectional controls (U+202E turns "gpj.exe" into "exe.jpg" on screen, the
 * trick behind spoofed subjects), unpaired surrogates and noncharacters (no encoder can write them),
 * and a value that is blank to the eye (spaces or invisible characters only: the database refuses
 * a blank title, so a webhook carrying one could never succeed).
 */

/** A single line (a title, a name) or several (a summary, a description: line breaks allowed). */
export type PlainTextKind = 'line' | 'lines'

// C0 and C1 controls, DEL, line and paragraph separators; tab, line feed and carriage return are
// allowed in several lines only.
const CONTROL_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/u
const CONTROL_LINES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029]/u
const BIDI_CONTROL = /\p{Bidi_Control}/u
// Under the u flag a surrogate code point is one that has no partner.
const UNWRITABLE = /[\p{Cs}\uFDD0-\uFDEF\uFFFE\uFFFF]/u
const BLANK = /^[\s\p{Cf}]*$/u

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

/** Why `value` is not plain text a reader can be shown, or null when it is (empty is for `required` to judge). */
export function plainTextProblem(value: string | undefined | null, kind: PlainTextKind = 'line'): string | null {
  if (value === undefined || value === null || value === '') return null
  if (BLANK.test(value)) return 'Write some words: spaces or invisible characters alone are blank'
  const control = (kind === 'line' ? CONTROL_LINE : CONTROL_LINES).exec(value)
  if (control) {
    const where = `at character ${[...value.slice(0, control.index)].length + 1}`
    return kind === 'line' && /[\n\r\t\u2028\u2029]/.test(control[0])
      ? `One line only: remove the line break or tab (${codePoint(control[0])}) ${where}`
      : `Remove the invisible control character ${codePoint(control[0])} ${where} (pasted text often carries one; it breaks feeds and e-mails)`
  }
  const bidi = BIDI_CONTROL.exec(value)
  if (bidi) return `Remove the text-direction control ${codePoint(bidi[0])}: it can make words read in a different order than they are written`
  const unwritable = UNWRITABLE.exec(value)
  if (unwritable) return `Remove the character ${codePoint(unwritable[0])}: it is not a character any reader can display`
  return null
}

/**
 * The rule as a Sanity custom validation: `rule.custom(plainTextRule('line'))`. Kept free of
 * Sanity's types so the site's bundle never loads them.
 */
export const plainTextRule =
  (kind: PlainTextKind = 'line') =>
  (value: unknown): true | string =>
    (typeof value === 'string' ? plainTextProblem(value, kind) : null) ?? true

const STRIP_LINE = new RegExp(`${CONTROL_LINE.source}|${BIDI_CONTROL.source}|${UNWRITABLE.source}`, 'gu')
const STRIP_LINES = new RegExp(`${CONTROL_LINES.source}|${BIDI_CONTROL.source}|${UNWRITABLE.source}`, 'gu')

/**
 * What the rule would have let through, for text written before it (or by anything that skips the
 * Studio): what it refuses removed, a single line's breaks and tabs made spaces. Readers (feeds,
 * e-mail subjects) get this, never the raw value.
 */
export function toPlainText(value: string | null | undefined, kind: PlainTextKind = 'line'): string {
  if (!value) return ''
  const spaced = kind === 'line' ? value.replace(/[\t\n\r\u2028\u2029]+/g, ' ') : value
  return spaced.replace(kind === 'line' ? STRIP_LINE : STRIP_LINES, '')
}
