import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseNdjson } from '@/sanity/seed/dataset'
import {
  cleanWaitlistText,
  codePointLength,
  normalizeWaitlistInput,
  trimWaitlistText,
  validateWaitlistInput,
  WAITLIST_EMAIL_PATTERN,
  WAITLIST_LIMITS,
  WAITLIST_WHITESPACE,
  waitlistErrorMessage,
} from '@/components/waitlist/rules'
import type { WaitlistErrorCopy } from '@/sanity/content/types'
import { BLANK_TEXTS, INVISIBLE_CODE_POINTS, TEXTS_WITH_INVISIBLES } from '../helpers/blank-text'

describe('normalizeWaitlistInput', () => {
  it('trims every field and turns a missing company into an empty project', () => {
    expect(normalizeWaitlistInput({ name: ' Ada ', email: '\tada@example.com\n' })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      project: '',
    })
    expect(normalizeWaitlistInput({ name: 'Ada', email: 'a@b.co', company: null }).project).toBe('')
    expect(normalizeWaitlistInput({ name: 'Ada', email: 'a@b.co', company: '\u00A0Acme\u3000' }).project).toBe('Acme')
  })
})

describe('trimWaitlistText', () => {
  it('trims the same characters as String#trim, written out', () => {
    const everything = Array.from({ length: 0x3100 }, (_, i) => String.fromCharCode(i)).concat('\uFEFF')
    const trimmedByJs = everything.filter((char) => char.trim() === '').join('')
    expect([...trimmedByJs].sort()).toEqual([...WAITLIST_WHITESPACE].sort())
  })

  it('keeps inner whitespace and characters that only look blank', () => {
    expect(trimWaitlistText(' a  b ')).toBe('a  b')
    expect(trimWaitlistText('\u200Bx\u200B')).toBe('\u200Bx\u200B')
  })
})

describe('cleanWaitlistText', () => {
  it('takes as invisible exactly Default_Ignorable_Code_Point and BRAILLE PATTERN BLANK, in the pinned Node', () => {
    const ignorable = /^\p{Default_Ignorable_Code_Point}$/u
    const expected: number[] = [0x2800]
    for (let code = 0; code <= 0x10ffff; code++) if (ignorable.test(String.fromCodePoint(code))) expected.push(code)
    expect([...INVISIBLE_CODE_POINTS].sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b))
  })

  it.each(BLANK_TEXTS)('makes %s blank: the empty string', (_, text) => {
    expect(cleanWaitlistText(text)).toBe('')
  })

  it.each(TEXTS_WITH_INVISIBLES)('keeps %j as written, trimmed only', (text) => {
    expect(cleanWaitlistText(` ${text}\u3000`)).toBe(text)
  })
})

describe('codePointLength', () => {
  it('counts code points like Postgres char_length', () => {
    expect(codePointLength('abc')).toBe(3)
    expect(codePointLength('😀😀')).toBe(2)
    expect(codePointLength('e\u0301')).toBe(2)
  })
})

describe('WAITLIST_EMAIL_PATTERN', () => {
  // The pattern judges the stored spelling: the domain already lower-cased and IDNA-encoded.
  it.each(['a@b.co', 'ada+tag@mail.example.co.uk', 'zoë@xn--exmple-cua.de', "o'brien@x.yz", 'a.b-c@x-y.z'])('accepts %s', (email) => {
    expect(WAITLIST_EMAIL_PATTERN.test(email)).toBe(true)
  })
  it.each(['', 'a', 'a@b', '@b.co', 'a@.b.co', 'a@b..co', 'a@b.co.', 'a@@b.co', 'a b@c.de', 'a@b.c\u3000o', 'a\n@b.co', '"a_b"@x.y', 'a@exämple.de', 'a@B.co'])(
    'refuses %j',
    (email) => {
      expect(WAITLIST_EMAIL_PATTERN.test(email)).toBe(false)
    },
  )
})

describe('validateWaitlistInput', () => {
  it('accepts a complete sign-up and returns the normalized row', () => {
    expect(validateWaitlistInput({ name: ' Ada ', email: 'ada@example.com', company: 'Engines' })).toEqual({
      ok: true,
      row: { name: 'Ada', email: 'ada@example.com', project: 'Engines' },
    })
  })

  it.each([
    ['blank name', { name: ' \t ', email: 'a@b.co' }, { name: 'required' }],
    ['missing e-mail', { name: 'Ada', email: '' }, { email: 'required' }],
    ['malformed e-mail', { name: 'Ada', email: 'ada@example' }, { email: 'invalid_email' }],
    ['long name', { name: 'a'.repeat(WAITLIST_LIMITS.name + 1), email: 'a@b.co' }, { name: 'too_long' }],
    ['long e-mail', { name: 'Ada', email: `${'a'.repeat(250)}@b.co` }, { email: 'too_long' }],
    ['long company', { name: 'Ada', email: 'a@b.co', company: 'c'.repeat(WAITLIST_LIMITS.project + 1) }, { company: 'too_long' }],
    ['NUL in name', { name: 'A\u0000', email: 'a@b.co' }, { name: 'invalid_characters' }],
    ['lone surrogate in e-mail', { name: 'Ada', email: 'a\uD800@b.co' }, { email: 'invalid_characters' }],
    ['lone low surrogate in company', { name: 'Ada', email: 'a@b.co', company: '\uDC00' }, { company: 'invalid_characters' }],
    [
      'a line break inside the name (a forged e-mail field)',
      { name: 'Jane Doe\n\n*E-mail*\nceo@bigcorp.example', email: 'a@b.co' },
      { name: 'invalid_characters' },
    ],
    ['a carriage return inside the name', { name: 'Jane\rDoe', email: 'a@b.co' }, { name: 'invalid_characters' }],
    ['a line separator inside the company', { name: 'Ada', email: 'a@b.co', company: 'Acme\u2028Ltd' }, { company: 'invalid_characters' }],
    ['a bidi override in the name', { name: 'Eve\u202Efdp.exe', email: 'a@b.co' }, { name: 'invalid_characters' }],
    ['a bidi isolate in the company', { name: 'Ada', email: 'a@b.co', company: '\u2067Acme\u2069' }, { company: 'invalid_characters' }],
    ['a zero-width space inside the name', { name: 'A\u200Bda', email: 'a@b.co' }, { name: 'invalid_characters' }],
    ['an escape sequence in the name', { name: 'Red\u001b[31m', email: 'a@b.co' }, { name: 'invalid_characters' }],
    ['everything wrong', { name: '', email: 'nope', company: 'c'.repeat(201) }, { name: 'required', email: 'invalid_email', company: 'too_long' }],
  ])('flags %s', (_, input, errors) => {
    const result = validateWaitlistInput(input)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.errors).toEqual(errors)
  })

  it.each(BLANK_TEXTS)('takes a name of %s as missing, and a company of it as none', (_, text) => {
    expect(validateWaitlistInput({ name: text, email: 'a@b.co' })).toMatchObject({ ok: false, errors: { name: 'required' } })
    expect(validateWaitlistInput({ name: 'Ada', email: 'a@b.co', company: text })).toEqual({ ok: true, row: { name: 'Ada', email: 'a@b.co', project: '' } })
  })

  it('counts an emoji name by code points: 100 emoji pass, 101 do not', () => {
    expect(validateWaitlistInput({ name: '😀'.repeat(100), email: 'a@b.co' }).ok).toBe(true)
    expect(validateWaitlistInput({ name: '😀'.repeat(101), email: 'a@b.co' }).ok).toBe(false)
  })

  it('keeps a well-formed surrogate pair', () => {
    expect(validateWaitlistInput({ name: '𝒳', email: 'a@b.co' }).ok).toBe(true)
  })
})

function seedDoc<T>(id: string): T {
  return parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8')).find((doc) => doc._id === id) as T
}

describe('waitlistErrorMessage', () => {
  // The seed's copy: what the site shows until a marketer edits it in the Studio.
  const copy = seedDoc<{ form: WaitlistErrorCopy }>('waitlistPage').form

  it("fills the content's templates with the field's name and limit", () => {
    expect(waitlistErrorMessage('name', 'required', copy)).toBe('Please enter your name.')
    expect(waitlistErrorMessage('company', 'too_long', copy)).toBe('Please shorten the project or company to at most 200 characters.')
    expect(waitlistErrorMessage('email', 'invalid_email', copy)).toBe('Please enter a valid email address.')
    expect(waitlistErrorMessage('name', 'invalid_characters', copy)).toBe('Please remove the unsupported characters from your name.')
  })

  it('says what a marketer wrote, in any words', () => {
    const edited = { ...copy, errorTooLong: '{field}: {n} max, {n}!', emailInSentence: 'Ihre E-Mail' }
    expect(waitlistErrorMessage('email', 'too_long', edited)).toBe('Ihre E-Mail: 254 max, 254!')
  })
})

describe('names and companies are plain text, in every script', () => {
  it.each(['Zoë Ågren-Ñúñez', '李小龍', "O'Brien & Co. (Ltd)", 'Jane Doe https://example.com', ...TEXTS_WITH_INVISIBLES])('accepts %j', (name) => {
    expect(validateWaitlistInput({ name, email: 'a@b.co', company: name })).toMatchObject({ ok: true })
  })
})
