import MiniSearch, { type SearchResult } from 'minisearch'
import { toPlainText } from '@/lib/content/plain-text'

// The site search's index and its answers, kept free of Next and Sanity so the tests run it
// directly: the documents come from ./documents.ts, the page from ./search-view.tsx.

export type SearchKind = 'page' | 'article' | 'changelog'

/** One address the search can lead to, with the words a reader finds there (plain text). */
export type SearchDocument = {
  path: string
  title: string
  text: string
  kind: SearchKind
}

/** A stretch of shown text: a matched word is `mark`ed (drawn as <mark>, as React elements). */
export type Segment = { text: string; mark: boolean }

export type SearchHit = {
  path: string
  kind: SearchKind
  title: Segment[]
  excerpt: Segment[]
}

/** The longest query looked up, in characters: the box says so too (`maxLength`). */
export const MAX_QUERY_LENGTH = 100

/** How many results one search shows at most. */
export const MAX_RESULTS = 20

/** About how long an excerpt is, in characters (whole words, so a little more or less). */
const EXCERPT_LENGTH = 180
/** How much of the excerpt comes before the first matched word. */
const EXCERPT_LEAD = 50

// MiniSearch's own word boundary: spaces and punctuation in any script.
const SEPARATOR = /[\n\r\p{Z}\p{P}]+/u
const SEPARATED = /([\n\r\p{Z}\p{P}]+)/u

/**
 * A word as the index compares it: lower case, without accents, so "Datenschutzerklarung" finds
 * "Datenschutzerklärung" and "resume" finds "résumé".
 */
export function normalizeTerm(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
}

/**
 * What a query box sent, made safe to look up and to show: the first value only, no control or
 * direction characters and no lone surrogates (the plain-text rule), whitespace runs made one
 * space, and no more than MAX_QUERY_LENGTH characters (whole code points). Spaces alone are
 * no query: the empty string.
 */
export function normalizeQuery(raw: string | string[] | undefined | null): string {
  const value = Array.isArray(raw) ? raw[0] : raw
  if (!value) return ''
  // Cut first: a megabyte of query costs no more than its first few hundred characters. A lone
  // surrogate sent in an address arrives decoded as U+FFFD, which no word contains: dropped too.
  const plain = toPlainText(value.slice(0, MAX_QUERY_LENGTH * 4), 'line')
    .normalize('NFC')
    .replace(/\uFFFD/g, '')
    .replace(/[\s\p{Cf}]+/gu, ' ')
    .trim()
  return [...plain].slice(0, MAX_QUERY_LENGTH).join('').trim()
}

/** The index of one language's documents, built on the server (MiniSearch). */
export type SearchIndex = {
  documents: SearchDocument[]
  miniSearch: MiniSearch<SearchDocument>
}

export function buildSearchIndex(documents: SearchDocument[]): SearchIndex {
  const miniSearch = new MiniSearch<SearchDocument>({
    idField: 'path',
    fields: ['title', 'text'],
    processTerm: (term) => normalizeTerm(term) || null,
    searchOptions: {
      // A title that has the word ranks above a text that merely mentions it.
      boost: { title: 4 },
      // Every word of the query must be found (in the title or the text), each allowing for
      // typing: a prefix from two letters ("gdp" finds "GDPR"), one typo from four letters and
      // two from eight ("slak" finds "Slack").
      combineWith: 'AND',
      prefix: (term) => term.length >= 2,
      // Whole edits, not a fraction: a fraction rounds up, and "pricing" would find "writing".
      fuzzy: (term) => (term.length >= 8 ? 2 : term.length >= 4 ? 1 : false),
    },
  })
  const unique = [...new Map(documents.map((document) => [document.path, document])).values()]
  miniSearch.addAll(unique)
  return { documents: unique, miniSearch }
}

/** The documents that match a (normalized) query, best first, each with its words highlighted. */
export function search(index: SearchIndex, query: string, limit = MAX_RESULTS): SearchHit[] {
  if (!query) return []
  const byPath = new Map(index.documents.map((document) => [document.path, document]))
  return index.miniSearch
    .search(query)
    .slice(0, limit)
    .flatMap((result: SearchResult) => {
      const document = byPath.get(result.id as string)
      if (!document) return []
      const matched = new Set(result.terms)
      return [
        {
          path: document.path,
          kind: document.kind,
          title: highlight(document.title, matched),
          excerpt: excerpt(document.text, matched),
        },
      ]
    })
}

/** The text as words and what lies between them, each word marked when it is one of `matched`. */
export function highlight(text: string, matched: ReadonlySet<string>): Segment[] {
  return merge(
    tokens(text).map((token) => ({
      text: token,
      mark: !SEPARATOR.test(token) && matched.has(normalizeTerm(token)),
    })),
  )
}

/**
 * A short stretch of the text around its first matched word (or its beginning, when only the
 * title matched), whole words only, with "…" where it was cut, and the matched words marked.
 */
export function excerpt(text: string, matched: ReadonlySet<string>, length = EXCERPT_LENGTH): Segment[] {
  const words = tokens(toPlainText(text, 'line').replace(/\s+/g, ' ').trim())
  const isMatch = (token: string) => !SEPARATOR.test(token) && matched.has(normalizeTerm(token))
  const first = Math.max(0, words.findIndex(isMatch))
  let start = first
  for (let lead = 0; start > 0 && lead + words[start - 1]!.length <= EXCERPT_LEAD; start--) lead += words[start - 1]!.length
  // Begin on a word, not on the punctuation before it.
  if (start < words.length && SEPARATOR.test(words[start]!)) start++
  let end = start
  for (let used = 0; end < words.length && (used === 0 || used + words[end]!.length <= length); end++) used += words[end]!.length
  // Cut after a word, too (a text that ends keeps its full stop).
  if (end < words.length) while (end > start + 1 && SEPARATOR.test(words[end - 1]!)) end--
  const shown = words.slice(start, end).map((token) => ({ text: token, mark: isMatch(token) }))
  if (start > 0) shown.unshift({ text: '… ', mark: false })
  if (end < words.length) shown.push({ text: ' …', mark: false })
  return merge(shown)
}

function tokens(text: string): string[] {
  return text.split(SEPARATED).filter((token) => token !== '')
}

/** Neighbouring stretches of the same kind as one. */
function merge(segments: Segment[]): Segment[] {
  const merged: Segment[] = []
  for (const segment of segments) {
    const last = merged.at(-1)
    if (last && last.mark === segment.mark && !segment.mark) last.text += segment.text
    else merged.push({ ...segment })
  }
  return merged
}
