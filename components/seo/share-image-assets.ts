import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { SatoriOptions } from 'satori'

// Everything a share image is drawn with comes from packages in node_modules: fonts from
// @fontsource (SIL Open Font License 1.1) and emoji from @twemoji/svg (Twemoji graphics, CC-BY 4.0,
// credited in the README). Nothing is ever fetched: a character in none of these fonts is drawn
// as the font's empty box. next.config.ts lists the files for the og routes' output trace.

/** Where the packages are at run time: `next build`, `next start` and vitest all run from the project root. */
const modules = path.join(/* turbopackIgnore: true */ process.cwd(), 'node_modules')

type Font = SatoriOptions['fonts'][number]
/** The weights the image is set in: only their files are loaded, and traced for the server. */
type Weight = 400 | 700 | 800
const WEIGHTS: Weight[] = [400, 700, 800]

/** The face of the image (what next/og drew with before, now in the weights the layout asks for). */
export const SHARE_IMAGE_FONT_FAMILY = 'Geist'
const BASE_PACKAGE = 'geist-sans'

/**
 * Packages for the scripts the base face lacks, tried in this order for each character, and the
 * unicode subsets of each worth loading (their Latin subsets would only repeat the base face).
 * Noto Sans SC draws Chinese and Japanese kana; its subsets also list Hangul but have no glyphs
 * for most of it, so Hangul goes to Noto Sans KR first (`first`).
 */
const FALLBACK_PACKAGES: { id: string; skip: string[]; first?: RegExp }[] = [
  { id: 'noto-sans', skip: ['latin'] },
  { id: 'noto-sans-arabic', skip: ['latin', 'latin-ext'] },
  { id: 'noto-sans-hebrew', skip: ['latin', 'latin-ext', 'cyrillic-ext', 'greek-ext'] },
  { id: 'noto-sans-thai', skip: ['latin', 'latin-ext'] },
  { id: 'noto-sans-sc', skip: ['latin', 'latin-ext', 'cyrillic', 'vietnamese'] },
  { id: 'noto-sans-kr', skip: ['latin', 'latin-ext', 'cyrillic', 'vietnamese'], first: /\p{Script=Hangul}/u },
]

/**
 * The files drawing can read, for next.config.ts's `outputFileTracingIncludes`: Next cannot see
 * them in the code (their names are built at run time), and a server started from the build
 * output alone must still have them.
 */
export const SHARE_IMAGE_FILES = [
  ...[BASE_PACKAGE, ...FALLBACK_PACKAGES.map((pkg) => pkg.id)].flatMap((id) => [
    `node_modules/@fontsource/${id}/{unicode,metadata}.json`,
    `node_modules/@fontsource/${id}/files/*-{${WEIGHTS.join(',')}}-normal.woff`,
  ]),
  'node_modules/@twemoji/svg/*.svg',
]

/** A piece of text in the image and the weight it is set in. */
export type TextRun = { text: string; weight: Weight }

type Subset = { pkg: string; name: string; ranges: [number, number][]; first?: RegExp }

function parseRanges(unicodeRange: string): [number, number][] {
  return unicodeRange.split(',').map((part) => {
    const [start = '', end = start] = part.trim().replace(/^U\+/i, '').split('-')
    return [parseInt(start, 16), parseInt(end, 16)]
  })
}

const inRanges = (ranges: [number, number][], codePoint: number) => ranges.some(([start, end]) => start <= codePoint && codePoint <= end)

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(path.join(modules, file), 'utf8')) as T
}

type Catalogue = { base: [number, number][]; subsets: Subset[]; weights: Map<string, number[]> }
let catalogue: Promise<Catalogue> | undefined

/** The unicode ranges and weights of every font package, read once per process from their own metadata. */
function loadCatalogue(): Promise<Catalogue> {
  catalogue ??= (async () => {
    const weights = new Map<string, number[]>()
    const subsets: Subset[] = []
    for (const { id, skip, first } of FALLBACK_PACKAGES) {
      const [unicode, metadata] = await Promise.all([
        readJson<Record<string, string>>(`@fontsource/${id}/unicode.json`),
        readJson<{ weights: number[] }>(`@fontsource/${id}/metadata.json`),
      ])
      weights.set(id, metadata.weights)
      for (const [name, range] of Object.entries(unicode)) {
        if (!skip.includes(name)) subsets.push({ pkg: id, name: name.replace(/^\[(\d+)\]$/, '$1'), ranges: parseRanges(range), first })
      }
    }
    // The base face's one subset is Google Fonts' "latin" range, the same as Noto Sans's.
    const base = parseRanges((await readJson<Record<string, string>>('@fontsource/noto-sans/unicode.json')).latin!)
    weights.set(BASE_PACKAGE, (await readJson<{ weights: number[] }>(`@fontsource/${BASE_PACKAGE}/metadata.json`)).weights)
    return { base, subsets, weights }
  })()
  catalogue.catch(() => (catalogue = undefined))
  return catalogue
}

// Each file is read once per process and the same buffer handed to every render: satori keeps
// its parsed fonts keyed by the buffer, so a font is parsed once too.
const fileCache = new Map<string, Promise<Buffer>>()
function readCached(file: string): Promise<Buffer> {
  let data = fileCache.get(file)
  if (!data) {
    data = readFile(path.join(modules, file))
    data.catch(() => fileCache.delete(file))
    fileCache.set(file, data)
  }
  return data
}

const nearest = (available: number[], weight: number) =>
  available.reduce((best, candidate) => (Math.abs(candidate - weight) < Math.abs(best - weight) ? candidate : best))

async function fontFile(pkg: string, subset: string, weight: Weight, weights: number[], name: string): Promise<Font> {
  const actual = nearest(weights, weight) as NonNullable<Font['weight']>
  const data = await readCached(`@fontsource/${pkg}/files/${pkg}-${subset}-${actual}-normal.woff`)
  return { name, data, weight: actual, style: 'normal' }
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' })
// Built at run time: TypeScript's target (ES2022) rejects the `v` flag in a literal; Node 22 has it.
const emojiGrapheme = new RegExp('^\\p{RGI_Emoji}$', 'v')
/** Characters drawn by no glyph of their own (controls, joiners, variation selectors). */
const invisible = /[\p{Cc}\p{Cf}\uFE00-\uFE0F]/u

/**
 * The fonts that draw these runs: the base face in each weight used, plus only the unicode
 * subsets of the fallback fonts whose characters appear, in the weights they appear in. A CJK
 * title loads a few of Noto Sans SC's hundred slices rather than the whole 10 MB family.
 * Emoji are left out: they are drawn as pictures (loadEmoji).
 */
export async function fontsFor(runs: TextRun[]): Promise<Font[]> {
  const { base, subsets, weights } = await loadCatalogue()
  const wanted = new Map<string, { subset: Subset; weight: Weight }>()
  for (const { text, weight } of runs) {
    for (const { segment } of graphemes.segment(text)) {
      if (emojiGrapheme.test(segment)) continue
      for (const char of segment) {
        const codePoint = char.codePointAt(0)!
        if (invisible.test(char) || inRanges(base, codePoint)) continue
        const covers = (candidate: Subset) => inRanges(candidate.ranges, codePoint)
        const subset = subsets.find((candidate) => candidate.first?.test(char) && covers(candidate)) ?? subsets.find(covers)
        if (subset) wanted.set(`${subset.pkg}/${subset.name}/${weight}`, { subset, weight })
      }
    }
  }
  const baseWeights = [...new Set(runs.map((run) => run.weight))]
  return Promise.all([
    ...baseWeights.map((weight) => fontFile(BASE_PACKAGE, 'latin', weight, weights.get(BASE_PACKAGE)!, SHARE_IMAGE_FONT_FAMILY)),
    // One name per subset, so that satori picks among its weights and tries every subset in turn.
    ...[...wanted.values()].map(({ subset, weight }) => fontFile(subset.pkg, subset.name, weight, weights.get(subset.pkg)!, `${subset.pkg}-${subset.name}`)),
  ])
}

/**
 * Twemoji's file name for an emoji: its code points in hex, without the presentation selector
 * U+FE0F unless the emoji is a ZWJ sequence (Twemoji's own rule). Only hex digits and dashes, so
 * no text can name any other file.
 */
export function twemojiName(emoji: string): string {
  const points = emoji.includes('\u200d') ? emoji : emoji.replaceAll('\ufe0f', '')
  return [...points].map((char) => char.codePointAt(0)!.toString(16)).join('-')
}

const emojiCache = new Map<string, Promise<string | undefined>>()

/** An emoji as an SVG data URI from @twemoji/svg, or undefined for one Twemoji does not draw (satori then draws a box). */
export function loadEmoji(emoji: string): Promise<string | undefined> {
  const name = twemojiName(emoji)
  let uri = emojiCache.get(name)
  if (!uri) {
    // A few sequences are named without their selectors even with a ZWJ: try that spelling next.
    const names = [name, twemojiName(emoji.replaceAll('\ufe0f', ''))]
    uri = (async () => {
      for (const candidate of new Set(names)) {
        const svg = await readFile(path.join(modules, '@twemoji/svg', `${candidate}.svg`)).catch(() => null)
        if (svg) return `data:image/svg+xml;base64,${svg.toString('base64')}`
      }
      // Not kept: names that match no file would otherwise pile up without bound.
      emojiCache.delete(name)
      return undefined
    })()
    emojiCache.set(name, uri)
  }
  return uri
}

/**
 * satori's hook for what the given fonts lack: emoji come from Twemoji; for text it gets nothing
 * (every font we have was already given), so a glyph in none of them is drawn as a box rather
 * than looked for elsewhere.
 */
export const loadAdditionalAsset: NonNullable<SatoriOptions['loadAdditionalAsset']> = async (code, segment) =>
  (code === 'emoji' && (await loadEmoji(segment))) || []
