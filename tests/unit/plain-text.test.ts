import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { plainTextProblem, plainTextRule, toPlainText } from '@/lib/content/plain-text'
import { validateDocuments } from '@/sanity/validate-documents'
import { schemaTypes } from '@/sanity/schemaTypes'
import { updateEmailSubject } from '@/components/waitlist/outbox/update-email'
import type { WaitlistEmailCopy } from '@/sanity/content/types'

// The one rule for plain text a reader sees (titles, summaries, names), as the Studio and
// `content:publish` apply it, and as readers (feeds, e-mail subjects) get text that skipped it.

describe('plain text a reader sees', () => {
  it('accepts words in any script, emoji and combining marks', () => {
    for (const value of ['We launched', 'Zürich café', 'مرحبا بالعالم', '你好，世界', 'नमस्ते', 'Launch 🚀👩🏽‍💻🇩🇪', 'e\u0301', 'Q&A <b>', "It's ]]> fine"]) {
      expect(plainTextProblem(value), value).toBeNull()
    }
    expect(plainTextProblem('First line\nsecond line', 'lines')).toBeNull()
  })

  it('refuses what breaks feeds or disguises words, saying what and where', () => {
    expect(plainTextProblem('One\u000Btwo', 'lines')).toMatch(/U\+000B at character 4/)
    expect(plainTextProblem('One\ntwo')).toMatch(/One line only/)
    expect(plainTextProblem('tab\there')).toMatch(/One line only/)
    expect(plainTextProblem('nul\u0000')).toMatch(/U\+0000/)
    expect(plainTextProblem('c1 \u0085')).toMatch(/U\+0085/)
    expect(plainTextProblem('Invoice \u202Egpj.exe')).toMatch(/text-direction control U\+202E/)
    for (const bidi of ['\u200E', '\u200F', '\u061C', '\u202A', '\u202B', '\u202C', '\u202D', '\u2066', '\u2067', '\u2068', '\u2069']) {
      expect(plainTextProblem(`a${bidi}b`), bidi.codePointAt(0)!.toString(16)).toMatch(/text-direction control/)
    }
    expect(plainTextProblem('half \uD800')).toMatch(/U\+D800/)
    expect(plainTextProblem('x\uFFFE')).toMatch(/U\+FFFE/)
    expect(plainTextProblem('line\u2028sep', 'lines')).toMatch(/U\+2028/)
  })

  it('refuses a value blank to the eye: spaces, no-break spaces, zero-width characters', () => {
    for (const blank of ['   ', '\u00A0', '\u3000', '\u200B', ' \u200D ', '\uFEFF', '\n\n']) {
      expect(plainTextProblem(blank, 'lines'), JSON.stringify(blank)).toMatch(/blank/)
    }
    // Empty is for `required` to judge: an optional field may be left empty.
    expect(plainTextProblem('')).toBeNull()
    expect(plainTextProblem(undefined)).toBeNull()
  })

  it('as a Sanity rule: true, or the message', () => {
    expect(plainTextRule('line')('ok')).toBe(true)
    expect(plainTextRule('line')(undefined)).toBe(true)
    expect(plainTextRule('line')('  ')).toMatch(/blank/)
  })

  it('readers get what the rule allows, whatever was stored', () => {
    expect(toPlainText('Invoice \u202Egpj.exe')).toBe('Invoice gpj.exe')
    expect(toPlainText('a\nb\tc')).toBe('a b c')
    expect(toPlainText('a\nb\u000Bc', 'lines')).toBe('a\nbc')
    expect(toPlainText(null)).toBe('')
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.constantFrom('line' as const, 'lines' as const), (value, kind) => {
        const plain = toPlainText(value, kind)
        const problem = plainTextProblem(plain, kind)
        expect(problem === null || /blank/.test(problem)).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('an update e-mail’s Subject is one line with no direction controls, whatever the post’s title holds', () => {
    const copy = { updateSubject: 'New: {title}' } as WaitlistEmailCopy
    expect(updateEmailSubject(copy, { title: 'Invoice \u202Egpj.exe\nBcc: x', excerpt: '' })).toBe('New: Invoice gpj.exe Bcc: x')
  })
})

describe('the Studio’s rule (and content:publish’s) on posts, pages and categories', () => {
  const post = (fields: Record<string, unknown>) => ({
    _id: 'post-x',
    _type: 'post',
    kind: 'article',
    title: 'A title',
    slug: { _type: 'slug', current: 'a-title' },
    publishedAt: '2026-11-01T10:00:00Z',
    excerpt: 'A summary.',
    body: [{ _key: 'b1', _type: 'block', style: 'normal', markDefs: [], children: [{ _key: 's1', _type: 'span', marks: [], text: 'Text.' }] }],
    ...fields,
  })
  const problems = (document: Record<string, unknown>) => validateDocuments(schemaTypes as never, [document])

  it('refuses a blank title, a vertical tab in the summary and a direction control in the title', async () => {
    expect(await problems(post({}))).toEqual([])
    expect((await problems(post({ title: '   ' }))).join()).toMatch(/title: Write some words/)
    expect((await problems(post({ excerpt: 'One\u000Btwo' }))).join()).toMatch(/excerpt: Remove the invisible control character U\+000B/)
    expect((await problems(post({ title: 'Invoice \u202Egpj.exe' }))).join()).toMatch(/title: Remove the text-direction control/)
  })

  it('refuses the same in a page’s title, a category’s name and a person’s name', async () => {
    const page = { _id: 'page-x', _type: 'page', title: 'Plan\u0000', slug: { _type: 'slug', current: 'plan' }, sections: [] }
    expect((await problems(page)).join()).toMatch(/title: Remove the invisible control character U\+0000/)
    const category = { _id: 'category-x', _type: 'category', title: '\u200B', slug: { _type: 'slug', current: 'x' } }
    expect((await problems(category)).join()).toMatch(/title: Write some words/)
    const person = { _id: 'person-x', _type: 'person', name: 'Ann\u2066e' }
    expect((await problems(person)).join()).toMatch(/name: Remove the text-direction control/)
  })

  it('applies the rule beside a warning: a search title with a control character is refused, a long one only advised', async () => {
    expect((await problems(post({ seo: { _type: 'seo', title: 'x'.repeat(80) } }))).join()).toBe('')
    expect((await problems(post({ seo: { _type: 'seo', title: 'Bad\u000B' } }))).join()).toMatch(/seo\.title: Remove the invisible control character/)
  })
})
