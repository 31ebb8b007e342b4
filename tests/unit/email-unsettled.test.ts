/**
 * The unsettled characters (components/waitlist/email.ts, EMAIL_UNSETTLED_RANGES) were written for
 * this Node's Unicode version, and each of them does normalise here: a Node with newer tables
 * knows characters the list lacks, so it must be written again (tools/db/unicode-unsettled.ts).
 */
import { describe, expect, it } from 'vitest'
import { EMAIL_UNSETTLED_RANGES, EMAIL_UNSETTLED_UNICODE } from '@/components/waitlist/email'
import { assignedBy, unsettledHere, unsettledRanges } from '@/tools/db/unicode-unsettled'

describe('the unsettled characters of e-mail addresses', () => {
  it("were written for this Node's Unicode version", () => {
    expect(process.versions.unicode, 'run npx tsx tools/db/unicode-unsettled.ts and paste its output').toBe(EMAIL_UNSETTLED_UNICODE)
  })

  it('each normalises, lower-cases or combines in this Node', () => {
    for (const range of EMAIL_UNSETTLED_RANGES.split(' ')) {
      const [start, end = start] = range.split('-').map((code) => parseInt(code, 16))
      for (let code = start!; code <= end!; code++) expect(unsettledHere(String.fromCodePoint(code)), code.toString(16)).toBe(true)
    }
  })

  it('are the characters newer than the given version that normalise (DerivedAge.txt lines)', () => {
    // U+A7F1 arrived after 14.0 and folds to "S"; U+A7F2 too; U+0041 is old; U+0378 is unassigned.
    const ages = ['0041          ; 1.1 #', 'A7F2..A7F4    ; 14.0 #', 'A7F1          ; 17.0 #', '1E030..1E06D  ; 15.0 #'].join('\n')
    const old = assignedBy(ages, [14, 0])
    expect([old[0x41], old[0xa7f2], old[0xa7f4], old[0xa7f1], old[0x1e030]]).toEqual([1, 1, 1, 0, 0])
    const ranges = unsettledRanges(old)
    expect(ranges).toContainEqual([0xa7f1, 0xa7f1])
    expect(ranges).toContainEqual([0x1e030, 0x1e06d])
    expect(ranges.some(([start, end]) => start <= 0xa7f2 && 0xa7f2 <= end)).toBe(false)
    expect(ranges.some(([start, end]) => start <= 0x378 && 0x378 <= end)).toBe(false)
  })
})
