/**
 * How `npm run waitlist:credits` prints held referral credits (tools/owner/credits.ts): visitors
 * chose the names and addresses, so nothing in them reaches the founder's terminal raw.
 */
import { describe, expect, it } from 'vitest'
import { formatDecision, formatHeldCredits, type HeldCredit } from '@/tools/owner/credits'

const credit: HeldCredit = {
  id: 7,
  reason: 'disposable_domain',
  held_at: '2026-11-25T10:11:12.000Z',
  decision: null,
  decided_at: null,
  referrer_name: 'Eve \u001b[31mred\u202e',
  referrer_email: 'eve@example.com',
  referred_email: null,
}

describe('formatHeldCredits', () => {
  it('prints each credit with why in words, escapes control and bidi characters, and marks an erased friend', () => {
    const text = formatHeldCredits([credit])
    expect(text).toMatch(/^Id\s+Held \(UTC\)\s+Why\s+Referrer\s+Referrer e-mail\s+Referred e-mail\s+Decision\n/)
    expect(text).toMatch(/\n7\s+2026-11-25 10:11\s+disposable e-mail domain\s+Eve \\x1b\[31mred\\u\{202e\}\s+eve@example.com\s+\(erased\)\s+held\n/)
    expect(text).not.toMatch(/[\u001b\u202e]/)
  })

  it('says so when nothing is held', () => {
    expect(formatHeldCredits([])).toBe('No held referral credits.\n')
  })
})

describe('formatDecision', () => {
  it('tells a first decision from a repeated one and from an unknown id', () => {
    expect(formatDecision(7, true, { id: 7, decision: 'granted', changed: true })).toContain('Granted credit 7')
    expect(formatDecision(7, false, { id: 7, decision: 'refused', changed: true })).toContain('Refused credit 7')
    expect(formatDecision(7, false, { id: 7, decision: 'granted', changed: false })).toBe('Credit 7 was already granted: nothing changed.\n')
    expect(formatDecision(8, true, null)).toBe('No held credit 8.\n')
  })
})
