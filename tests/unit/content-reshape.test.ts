import { describe, expect, it } from 'vitest'
import { formatPrice, toLink, withUsageClaim } from '@/sanity/content/reshape'

describe('toLink', () => {
  const base = { _key: 'k', label: 'L', path: null, url: null, email: null, pageSlug: null, pageLanguage: null }
  it.each([
    [
      { ...base, kind: 'internal', path: '/about' },
      { kind: 'internal', href: '/about' },
    ],
    // A page by reference follows its current slug; unpublished (null) it is not a link.
    [
      { ...base, kind: 'page', pageSlug: 'privacy' },
      { kind: 'internal', href: '/privacy' },
    ],
    [{ ...base, kind: 'page' }, { kind: 'planned' }],
    [
      { ...base, kind: 'external', url: 'https://x.test' },
      { kind: 'external', href: 'https://x.test' },
    ],
    [
      { ...base, kind: 'email', email: 'a@b.test' },
      { kind: 'email', href: 'mailto:a@b.test' },
    ],
    [{ ...base, kind: 'demo' }, { kind: 'demo' }],
    [{ ...base, kind: 'planned' }, { kind: 'planned' }],
    // A destination left empty is shown as not yet available, never as a dead link.
    [{ ...base, kind: 'internal' }, { kind: 'planned' }],
    [{ ...base, kind: 'external' }, { kind: 'planned' }],
  ])('%o', (raw, expected) => {
    expect(toLink(raw)).toEqual({ key: 'k', label: 'L', ...expected })
  })
})

describe('formatPrice', () => {
  it.each([
    [0, 'USD', 'Free'],
    [29, 'USD', '$29'],
    [9.5, 'EUR', '€9.50'],
  ])('%d %s', (amount, currency, expected) => {
    expect(formatPrice(amount, currency, 'Free')).toBe(expected)
  })
})

describe('withUsageClaim', () => {
  it('replaces the token in nested strings and leaves other values alone', () => {
    expect(withUsageClaim({ a: 'Join {{usageClaim}}!', b: ['{{usageClaim}} and {{usageClaim}}'], c: 3, d: null }, '500+ teams')).toEqual({
      a: 'Join 500+ teams!',
      b: ['500+ teams and 500+ teams'],
      c: 3,
      d: null,
    })
  })
})
