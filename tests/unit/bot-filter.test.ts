import { describe, expect, it } from 'vitest'
import { MIN_FILL_MS, judgeSubmission } from '@/lib/waitlist/bot-filter'

describe('judgeSubmission', () => {
  it.each([
    [{ honeypot: '', shownAt: 0, submittedAt: MIN_FILL_MS }, 'person'],
    [{ honeypot: '', shownAt: 1000, submittedAt: 60_000 }, 'person'],
    [{ honeypot: 'https://spam.example', shownAt: 0, submittedAt: 60_000 }, 'honeypot'],
    [{ honeypot: '  ', shownAt: 0, submittedAt: 60_000 }, 'person'],
    [{ honeypot: '', shownAt: 0, submittedAt: MIN_FILL_MS - 1 }, 'too_fast'],
    // Before hydration the form has no start time: a submit then cannot be a person's.
    [{ honeypot: '', shownAt: Number.POSITIVE_INFINITY, submittedAt: 5000 }, 'too_fast'],
  ] as const)('%o is a %s', (input, verdict) => {
    expect(judgeSubmission(input)).toBe(verdict)
  })
})
