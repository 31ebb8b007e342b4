/**
 * One address, one spelling (components/waitlist/email.ts): the look-alikes of the issue collapse to one
 * spelling, the junk is refused, and the IDNA encoding is Node's (url.domainToASCII) on the shared
 * cases and on generated domains. The database's side runs the same cases in
 * tests/integration/waitlist-email-agree.test.ts.
 */
import { domainToASCII } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isPlausibleWaitlistEmail, normalizeWaitlistEmail, punycodeEncode } from '@/components/waitlist/email'
import { trimWaitlistText, validateWaitlistInput } from '@/components/waitlist/rules'
import { EMAIL_CASES, JUNK, LOOK_ALIKES } from '../helpers/email-cases'

const normalize = (value: string) => normalizeWaitlistEmail(value, trimWaitlistText)
const stored = (value: string) => {
  const n = normalize(value)
  return isPlausibleWaitlistEmail(n) ? n : null
}

describe('normalizeWaitlistEmail and isPlausibleWaitlistEmail', () => {
  it.each(EMAIL_CASES.map((c) => [c.label, c] as const))('%s', (_, c) => {
    expect(stored(c.input)).toBe(c.stored)
  })

  it('collapses the nine look-alike spellings of one address to one', () => {
    expect(new Set(LOOK_ALIKES.map(stored))).toEqual(new Set(['ada@example.com']))
  })

  it('refuses all the junk, and the form says "invalid e-mail" (or "invalid characters") for it', () => {
    for (const junk of JUNK) {
      expect(stored(junk), JSON.stringify(junk)).toBeNull()
      const verdict = validateWaitlistInput({ name: 'Ada', email: junk })
      expect(verdict.ok, JSON.stringify(junk)).toBe(false)
      if (!verdict.ok) expect(['invalid_email', 'invalid_characters']).toContain(verdict.errors.email)
    }
  })

  it('is idempotent: normalising the stored spelling changes nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (value) => {
        const once = normalize(value)
        expect(normalize(once)).toBe(once)
      }),
      { numRuns: 500 },
    )
  })
})

describe('IDNA', () => {
  it('encodes like Node (url.domainToASCII) on the shared cases', () => {
    for (const c of EMAIL_CASES) {
      if (c.stored === null) continue
      const domain = c.input.normalize('NFKC').slice(c.input.normalize('NFKC').lastIndexOf('@') + 1)
      expect(c.stored.slice(c.stored.lastIndexOf('@') + 1), c.label).toBe(domainToASCII(domain))
    }
  })

  it('encodes like Node on generated lower-case letter labels (Latin, Greek, Cyrillic, Japanese)', () => {
    const letter = fc.constantFrom(...'abcxyzäöüßéèñçøåłžšαβγδωабвгдяひらがなカタカナ漢字')
    const label = fc.string({ unit: letter, minLength: 1, maxLength: 12 })
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 3 }), (labels) => {
        const domain = `${labels.join('.')}.com`
        const ours = normalize(`x@${domain}`).slice(2)
        expect(ours).toBe(domainToASCII(domain))
      }),
      { numRuns: 300 },
    )
  })

  it('is RFC 3492 on its own sample strings', () => {
    // RFC 3492 section 7.1 (A) Arabic and (L) Japanese, lower-cased.
    expect(punycodeEncode('\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064A\u061F')).toBe(
      'egbpdaj6bu4bxfgehfvwxn',
    )
    expect(punycodeEncode('3年b組金八先生')).toBe('3b-ww4c5e180e575a65lsy2b')
  })
})
