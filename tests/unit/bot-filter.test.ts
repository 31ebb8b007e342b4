import { describe, expect, it } from 'vitest'
import { honeypotFilled, MIN_FILL_MS, remainingFillTime } from '@/components/waitlist/bot-filter'

describe('remainingFillTime', () => {
  it.each([
    [0, 0, MIN_FILL_MS],
    [0, 200, MIN_FILL_MS - 200],
    [0, MIN_FILL_MS, 0],
    [100, 100 + MIN_FILL_MS + 5000, 0],
    // A clock that went backwards never makes a visitor wait longer than the minimum.
    [1000, 0, MIN_FILL_MS],
    // Not shown yet (before hydration): the whole minimum.
    [Number.POSITIVE_INFINITY, 5, MIN_FILL_MS],
  ])('form shown at %s, submitted at %s: waits %s ms', (shownAt, now, wait) => {
    expect(remainingFillTime(shownAt, now)).toBe(wait)
  })
})

describe('honeypotFilled', () => {
  it.each([
    ['', false],
    ['   ', false],
    ['https://spam.example', true],
  ])('%j -> %s', (value, filled) => {
    expect(honeypotFilled(value)).toBe(filled)
  })
})
