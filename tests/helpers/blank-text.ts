/**
 * Text that shows nothing (issue #66, finding 6): each value is blank to the form
 * (components/waitlist/rules.ts, cleanWaitlistText) and to the database
 * (waitlist_rules.clean_text), so a name of it is missing and an answer of it no answer. Beside them,
 * text that holds the same characters among visible ones, which both keep as written.
 */
import { WAITLIST_INVISIBLE_CLASS } from '@/components/waitlist/rules'

export const BLANK_TEXTS: readonly (readonly [label: string, text: string])[] = [
  ['tag characters (U+E0041…)', '\u{E0041}\u{E0064}\u{E0061}'],
  ['a language tag and cancel tag', '\u{E0001}\u{E007F}'],
  ['HANGUL FILLER U+3164', '\u3164'],
  ['the Hangul choseong and jungseong fillers', '\u115F\u1160'],
  ['HALFWIDTH HANGUL FILLER', '\uFFA0'],
  ['MONGOLIAN VOWEL SEPARATOR U+180E', '\u180E'],
  ['soft hyphens (U+00AD)', '\u00AD\u00AD'],
  ['a combining grapheme joiner', '\u034F'],
  ['variation selectors', '\uFE0F\u{E0100}'],
  ['BRAILLE PATTERN BLANK', '\u2800\u2800'],
  ['a zero-width joiner and non-joiner alone', '\u200D\u200C'],
  ['a Khmer inherent vowel', '\u17B4'],
  ['musical and shorthand format controls', '\u{1D173}\u{1BCA0}'],
  ['a word joiner and a zero-width space', '\u2060\u200B'],
  ['fillers among spaces', ' \u3164\u3000\u00AD \u{E0020} '],
]

/** Kept as written: the invisible characters inside visible text. */
export const TEXTS_WITH_INVISIBLES: readonly string[] = [
  'محمد\u200Cرضا',
  'Ana 👩\u200D💻',
  // The flag of England: a black flag, the tags g b e n g, a cancel tag.
  '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}',
  'co\u00ADoperative',
  '❤\uFE0F',
]

/** Every code point of WAITLIST_INVISIBLE_CLASS, read from its escapes. */
export const INVISIBLE_CODE_POINTS: readonly number[] = [...WAITLIST_INVISIBLE_CLASS.matchAll(/\\[uU]([0-9A-F]+)(?:-\\[uU]([0-9A-F]+))?/g)].flatMap(
  ([, start, end = start]) => {
    const from = parseInt(start!, 16)
    return Array.from({ length: parseInt(end!, 16) - from + 1 }, (_, index) => from + index)
  },
)
