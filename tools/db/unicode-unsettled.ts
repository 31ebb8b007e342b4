/**
 * `npx tsx tools/db/unicode-unsettled.ts`: prints the code points an e-mail address may not carry
 * because the engines that normalise it disagree on them (EMAIL_UNSETTLED_RANGES in
 * components/waitlist/email.ts, the `unsettled` class of supabase/schemas/01_rules.sql).
 *
 * Why: NFKC and case mappings are stable for a character once it is assigned, but an engine only
 * knows the characters of its own Unicode version. PostgreSQL 15 (Supabase's and Debian's) has
 * Unicode 14.0, PGlite (PostgreSQL 17) 15.1, the pinned Node the version in
 * `process.versions.unicode`. A character assigned after 14.0 whose NFKC, lower case or combining
 * class is not itself is spelled one way by the site and another by the database (U+A7F1 is "S"
 * in Node 22 and itself in PostgreSQL 15), so the address would have two spellings.
 *
 * Reads the age of every code point from Unicode's DerivedAge.txt (Debian's `unicode-data`,
 * installed when missing) and asks the running Node for the mappings. Run it when the pinned Node
 * changes its Unicode version (tests/unit/email-unsettled.test.ts fails then), and paste its two
 * outputs where they say.
 */
import { readFile } from 'node:fs/promises'
import { ensureDebianBinary } from '../local/debian'

/** The oldest Unicode version among the databases the migrations run on (PostgreSQL 15). */
export const OLDEST_DATABASE_UNICODE: readonly [number, number] = [14, 0]

/** Code points assigned in `version` or before, from DerivedAge.txt's `start..end ; major.minor` lines. */
export function assignedBy(derivedAge: string, [major, minor]: readonly [number, number]): Uint8Array {
  const assigned = new Uint8Array(0x110000)
  for (const raw of derivedAge.split('\n')) {
    const line = raw.split('#')[0]!.trim()
    const match = /^([0-9A-F]+)(?:\.\.([0-9A-F]+))?\s*;\s*(\d+)\.(\d+)/.exec(line)
    if (!match) continue
    const [, start, end, ageMajor, ageMinor] = match
    if (Number(ageMajor) > major || (Number(ageMajor) === major && Number(ageMinor) > minor)) continue
    assigned.fill(1, parseInt(start!, 16), parseInt(end ?? start!, 16) + 1)
  }
  return assigned
}

/** Whether this engine maps the character to something else: NFKC, lower case, or a combining class. */
export function unsettledHere(char: string): boolean {
  if (char.normalize('NFKC') !== char || char.toLowerCase() !== char) return true
  // A non-zero combining class reorders against U+0334 (class 1) or U+0316 (class 220).
  return (char + '\u0334').normalize('NFD') !== char + '\u0334' || ('\u0316' + char).normalize('NFD') !== '\u0316' + char
}

/** The ranges of code points this Node knows, the oldest database does not, and that normalise. */
export function unsettledRanges(oldAssigned: Uint8Array): [number, number][] {
  const ranges: [number, number][] = []
  for (let code = 0; code < 0x110000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue
    const char = String.fromCodePoint(code)
    if (oldAssigned[code] || !/\p{Assigned}/u.test(char) || !unsettledHere(char)) continue
    const last = ranges.at(-1)
    if (last && last[1] === code - 1) last[1] = code
    else ranges.push([code, code])
  }
  return ranges
}

const hex = (code: number) => code.toString(16).toUpperCase()
const sqlEscape = (code: number) => (code > 0xffff ? `\\U${hex(code).padStart(8, '0')}` : `\\u${hex(code).padStart(4, '0')}`)

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = await ensureDebianBinary({
    binary: '/usr/share/unicode/DerivedAge.txt',
    pkg: 'unicode-data',
    override: { name: 'UNICODE_DERIVED_AGE', value: process.env.UNICODE_DERIVED_AGE },
    purpose: 'the age of each Unicode character',
  })
  const ranges = unsettledRanges(assignedBy(await readFile(file, 'utf8'), OLDEST_DATABASE_UNICODE))
  console.log(`// components/waitlist/email.ts (Node's Unicode ${process.versions.unicode})`)
  console.log(`export const EMAIL_UNSETTLED_UNICODE = '${process.versions.unicode}'`)
  console.log(`export const EMAIL_UNSETTLED_RANGES = '${ranges.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join(' ')}'`)
  console.log('\n-- supabase/schemas/01_rules.sql, waitlist_rules.unsettled()')
  console.log(`'[${ranges.map(([a, b]) => (a === b ? sqlEscape(a) : `${sqlEscape(a)}-${sqlEscape(b)}`)).join('')}]'`)
}
