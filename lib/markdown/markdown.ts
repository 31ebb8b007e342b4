import { portableTextToMarkdown } from '@portabletext/markdown'
import { toPlainText, type PlainTextKind } from '../content/plain-text'

/**
 * The pieces every Markdown twin and /llms.txt is written with. Whatever an editor typed, a text
 * stays the words it was: Markdown syntax that would change the structure (a leading "#", "-",
 * "1.", "*", "[", "<") is escaped by the field's converter (`@portabletext/markdown`, the same
 * that renders the rich text), so no raw HTML, heading or link can be typed into a title. Links
 * are absolute and lead only to http(s) addresses; anything else is left as its words. Free of
 * Next and Sanity, so tests run it directly.
 */

const span = (text: string) => ({ _type: 'span', _key: 's', text, marks: [] })

/** A plain text (a title, a summary) as Markdown that reads as those words and nothing else. */
export function text(value: string | null | undefined, kind: PlainTextKind = 'line'): string {
  const plain = toPlainText(value, kind).trim()
  if (!plain) return ''
  // A line break in several lines of text stays a line break, never the start of a list or heading.
  const markdown = portableTextToMarkdown([{ _type: 'block', _key: 'b', style: 'normal', markDefs: [], children: [span(plain.replace(/\r\n?/g, '\n'))] }], {
    hardBreak: () => '  \n',
  })
  // The converter escapes a bracket only where it sees a link: inside a link's or an image's words
  // any bracket could end them or start another. Its own escapes are kept as they are (a "\\"
  // before a bracket is an escaped backslash).
  return markdown.replace(/\\.|[[\]]/g, (match) => (match.length === 1 ? `\\${match}` : match))
}

/** The same for a table's cell: one line, and its "|" cannot end the cell. */
export const cell = (value: string | null | undefined) => text(value).replaceAll('|', '\\|')

/** A heading of a level from 1 (the page's title) to 6; nothing for an empty title. */
export function heading(level: number, value: string | null | undefined): string {
  const words = text(value)
  return words ? `${'#'.repeat(Math.min(6, Math.max(1, level)))} ${words}` : ''
}

/** A bulleted (or numbered) list of items that are already Markdown. */
export function list(items: (string | null | undefined)[], ordered = false): string {
  return items
    .filter((item): item is string => Boolean(item))
    .map((item, index) => `${ordered ? `${index + 1}.` : '-'} ${item.replaceAll('\n', '\n   ')}`)
    .join('\n')
}

/** A table: a header row and rows of plain-text cells. */
export function table(header: string[], rows: (string | null | undefined)[][]): string {
  if (rows.length === 0) return ''
  const line = (cells: (string | null | undefined)[]) => `| ${cells.map((value) => cell(value) || ' ').join(' | ')} |`
  return [line(header), `|${header.map(() => ' --- ').join('|')}|`, ...rows.map(line)].join('\n')
}

/** A block quote of plain text. */
export function quote(value: string | null | undefined): string {
  const words = text(value, 'lines')
  return words
    ? words
        .split('\n')
        .map((line) => `> ${line}`.trimEnd())
        .join('\n')
    : ''
}

/**
 * An address a twin may link to, absolute: a path on this site, or an http(s) address elsewhere.
 * Null for anything else (javascript:, data:, mailto:, a path a browser would read as another
 * host). "(", ")" and spaces are percent-encoded so the address cannot end the link early.
 */
export function absoluteUrl(href: string | null | undefined, siteUrl: string): string | null {
  const value = href?.trim()
  if (!value) return null
  const site = new URL(siteUrl)
  let url: URL
  try {
    url = value.startsWith('/') ? new URL(value, site) : new URL(value)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  if (value.startsWith('/') && (url.origin !== site.origin || value.startsWith('//') || value.includes('\\'))) return null
  return url.href.replace(/[()\s<>]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
}

/** A link with plain-text words; only the words when the address is not one a twin may link to. */
export function link(words: string | null | undefined, href: string | null | undefined, siteUrl: string): string {
  const label = text(words)
  const url = absoluteUrl(href, siteUrl)
  return url && label ? `[${label}](${url})` : label
}

/** An image as its alternative text and its address. */
export function image(alt: string | null | undefined, src: string | null | undefined, siteUrl: string): string {
  const url = absoluteUrl(src, siteUrl)
  return url ? `![${text(alt)}](${url})` : ''
}

/** A run of backticks longer than any in `code` (and at least `least` long): nothing inside can close it. */
export function fenceFor(code: string, least: number): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((run) => run[0].length))
  return '`'.repeat(Math.max(least, longest + 1))
}

/**
 * Code as a fenced block in its language: the fence is longer than any run of backticks in the
 * code, so no line of it can close the block early; a language that is not a plain word is left out.
 */
export function codeBlock(code: string, language?: string | null): string {
  const fence = fenceFor(code, 3)
  const tag = language && /^[a-z0-9+#.-]{1,30}$/i.test(language) ? language : ''
  return `${fence}${tag}\n${code.replace(/\r\n?/g, '\n').replace(/\n$/, '')}\n${fence}`
}

/** Blocks of Markdown, one blank line apart; empty ones left out. */
export const blocks = (...parts: (string | null | undefined | false)[]) => parts.filter((part): part is string => Boolean(part && part.trim())).join('\n\n')

/** A section's heading as the page draws it: the eyebrow above the title, the subtitle under it. */
export const titled = ({ eyebrow, title, subtitle }: { eyebrow?: string | null; title: string; subtitle?: string | null }, level: number) =>
  blocks(text(eyebrow), heading(level, title), text(subtitle, 'lines'))
