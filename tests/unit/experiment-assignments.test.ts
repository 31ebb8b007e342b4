import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_ASSIGNMENTS, parseAssignments, serializeAssignments } from '@/sanity/variants/assignments'

describe('the experiments cookie', () => {
  it('reads what it wrote', () => {
    const assignments = { 'landing-hero': 'b', pricing: 'control' }
    expect(parseAssignments(serializeAssignments(assignments))).toEqual(assignments)
  })

  it('keeps only well-formed pairs, the first of a repeated key', () => {
    expect(parseAssignments('landing-hero=b&landing-hero=c&Bad=b&x=b&ok-key=B&ok-key=c&__proto__=b&constructor=x&toString=a')).toEqual({
      'landing-hero': 'b',
      'ok-key': 'c',
      constructor: 'x',
    })
    expect(parseAssignments(undefined)).toEqual({})
    expect(parseAssignments('')).toEqual({})
    expect(parseAssignments('no-equals&=b&key=')).toEqual({})
  })

  it('refuses odd characters an attacker puts in the cookie', () => {
    for (const value of ['hero=b\u202e', 'hero=b%00', 'he\u0000ro=b', 'hero=<script>', 'hero=b;path=/', 'hero= b', 'hero=b\n', 'héro=b']) {
      expect(parseAssignments(value), value).toEqual({})
    }
  })

  it('caps the number of pairs and the length read', () => {
    const many = Array.from({ length: 50 }, (_, i) => `exp-${i}=b`).join('&')
    expect(Object.keys(parseAssignments(many))).toHaveLength(MAX_ASSIGNMENTS)
    expect(parseAssignments(`hero=b&${'x'.repeat(3000)}`)).toEqual({})
  })

  it('never writes a character outside the cookie-octets', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string()), (record) => {
        expect(serializeAssignments(record)).toMatch(/^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/)
      }),
    )
  })
})
