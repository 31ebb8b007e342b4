/**
 * The form's rules (components/waitlist/rules.ts) and the database's constraints
 * (the migration) must agree: validateWaitlistInput accepts an input iff the
 * database, as anon, stores its normalized row. Checked on a table of edge
 * cases and on generated inputs, against the real migration on PGlite.
 *
 * A second property: the database's own trimming (the BEFORE trigger) gives
 * the same outcome and the same stored values for the raw, untrimmed input,
 * so writers other than the form get the same rules.
 */
import type { PGlite } from '@electric-sql/pglite'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { normalizeWaitlistInput, validateWaitlistInput, WAITLIST_WHITESPACE, type WaitlistFormInput, type WaitlistRow } from '@/components/waitlist/rules'
import { BLANK_TEXTS, INVISIBLE_CODE_POINTS, TEXTS_WITH_INVISIBLES } from '../helpers/blank-text'
import { createWaitlistDb, INSERT_WAITLIST } from '../helpers/waitlist-db'

let db: PGlite

beforeAll(async () => {
  db = await createWaitlistDb()
})
afterAll(async () => {
  await db.close()
})

type DbOutcome = { ok: true; stored: WaitlistRow } | { ok: false; code: string; message: string }

const ROLLBACK = Symbol('rollback')

/** Inserts as anon, reads the stored row back as the owner, and always rolls back (no uniqueness carry-over). */
async function insertAsAnon(row: { name: string; email: string; project: string }): Promise<DbOutcome> {
  let outcome: DbOutcome | undefined
  try {
    await db.transaction(async (tx) => {
      await tx.query(`select set_config('role', 'anon', true)`)
      await tx.query(INSERT_WAITLIST, [row.name, row.email, row.project])
      await tx.query('reset role')
      const { rows } = await tx.query<WaitlistRow>('select name, email, project from public.waitlist')
      outcome = { ok: true, stored: rows[0] as WaitlistRow }
      throw ROLLBACK
    })
  } catch (error) {
    if (error === ROLLBACK && outcome) return outcome
    const pg = error as { code?: string; message?: string }
    if (typeof pg.code !== 'string') throw error
    return { ok: false, code: pg.code, message: pg.message ?? '' }
  }
  throw new Error('unreachable: the transaction always rolls back')
}

// Refusals must come from the field rules (or the impossibility of storing NUL), never from
// privileges or policies: those would mean the form and the database disagree about who may insert.
const FIELD_RULE_CODES = ['23514', '22021']

async function checkAgreement(input: WaitlistFormInput): Promise<void> {
  const verdict = validateWaitlistInput(input)
  const normalized = normalizeWaitlistInput(input)
  const stored = await insertAsAnon(normalized)
  const context = JSON.stringify({ input, verdict, stored })

  expect(stored.ok, `form and database disagree: ${context}`).toBe(verdict.ok)
  if (!stored.ok) expect(FIELD_RULE_CODES, context).toContain(stored.code)
  if (stored.ok) expect(stored.stored, context).toEqual(normalized)

  const raw = await insertAsAnon({ name: input.name, email: input.email, project: input.company ?? '' })
  expect(raw.ok, `database trimming differs from the form's: ${context} raw=${JSON.stringify(raw)}`).toBe(stored.ok)
  if (raw.ok && stored.ok) expect(raw.stored, context).toEqual(stored.stored)
}

const a = (n: number, unit = 'a') => unit.repeat(n)
const emailOfLength = (n: number, domain = '@example.com') => `${a(n - domain.length, 'x')}${domain}`

describe('form rules and database agree on edge cases', () => {
  const cases: [string, WaitlistFormInput][] = [
    ['simple', { name: 'Ada', email: 'ada@example.com' }],
    ['empty company', { name: 'Ada', email: 'ada@example.com', company: '' }],
    ['null company', { name: 'Ada', email: 'ada@example.com', company: null }],
    ['whitespace-only company', { name: 'Ada', email: 'ada@example.com', company: ' \u3000 ' }],
    ['unicode name', { name: 'Zoë Ørsted-Łukasiewicz 李小龍', email: 'zoe@example.com' }],
    ['RTL name', { name: 'محمد', email: 'm@example.com' }],
    ['emoji name', { name: '🦄 Unicorn', email: 'u@example.com' }],
    ['combining marks', { name: 'Ame\u0301lie', email: 'amelie@example.com' }],
    ['zero width space only (not whitespace for either)', { name: '\u200B', email: 'zw@example.com' }],
    ['next line U+0085 only (not in the whitespace set)', { name: '\u0085', email: 'nel@example.com' }],
    ['plus address', { name: 'Ada', email: 'ada+waitlist@example.com' }],
    ['subdomains', { name: 'Ada', email: 'ada@mail.eu.example.co.uk' }],
    ['uppercase', { name: 'ADA', email: 'ADA@EXAMPLE.COM' }],
    ['unicode address', { name: 'Zoë', email: 'zoë@exämple.de' }],
    ['quoted local part', { name: 'Ada', email: '"ada lovelace"@example.com' }],
    ['IP literal', { name: 'Ada', email: 'ada@[127.0.0.1]' }],
    ['leading and trailing spaces', { name: '  Ada  ', email: '  ada@example.com  ', company: '  Acme  ' }],
    ['tabs and newlines around', { name: '\tAda\n', email: '\r\nada@example.com\t', company: '\fAcme\v' }],
    ['no-break and ideographic spaces around', { name: '\u00A0Ada\u3000', email: '\uFEFFada@example.com\u2029' }],
    ['inner no-break space in e-mail', { name: 'Ada', email: 'ada\u00A0l@example.com' }],
    ['blank name', { name: '   ', email: 'ada@example.com' }],
    ['empty e-mail', { name: 'Ada', email: '' }],
    ['no @', { name: 'Ada', email: 'ada.example.com' }],
    ['two @', { name: 'Ada', email: 'ada@@example.com' }],
    ['no dot in domain', { name: 'Ada', email: 'ada@example' }],
    ['empty label', { name: 'Ada', email: 'ada@example..com' }],
    ['leading dot in domain', { name: 'Ada', email: 'ada@.example.com' }],
    ['trailing dot', { name: 'Ada', email: 'ada@example.com.' }],
    ['e-mail of exactly 254', { name: 'Ada', email: emailOfLength(254) }],
    ['e-mail of 255', { name: 'Ada', email: emailOfLength(255) }],
    ['e-mail of 254 with non-ASCII letters', { name: 'Ada', email: emailOfLength(254, '@exämple.de') }],
    ['e-mail of 254 code points with astral letters', { name: 'Ada', email: `${a(120, '𝒳')}${emailOfLength(134)}` }],
    ['e-mail of 255 code points with astral letters', { name: 'Ada', email: `${a(121, '𝒳')}${emailOfLength(134)}` }],
    ['name of 100', { name: a(100), email: 'ada@example.com' }],
    ['name of 101', { name: a(101), email: 'ada@example.com' }],
    ['name of 100 emoji (200 UTF-16 units)', { name: a(100, '😀'), email: 'ada@example.com' }],
    ['name of 101 emoji', { name: a(101, '😀'), email: 'ada@example.com' }],
    ['name of 100 plus padding', { name: `  ${a(100)}\u00A0`, email: 'ada@example.com' }],
    ['company of 200', { name: 'Ada', email: 'ada@example.com', company: a(200) }],
    ['company of 201', { name: 'Ada', email: 'ada@example.com', company: a(201) }],
    ['NUL in name', { name: 'A\u0000da', email: 'ada@example.com' }],
    ['NUL in company', { name: 'Ada', email: 'ada@example.com', company: '\u0000' }],
    ['line break inside the name', { name: 'Jane\n\n*E-mail*\nceo@bigcorp.example', email: 'ada@example.com' }],
    ['tab inside the company', { name: 'Ada', email: 'ada@example.com', company: 'Acme\tLtd' }],
    ['line separator inside the name', { name: 'Jane\u2028Doe', email: 'ada@example.com' }],
    ['bidi override in the company', { name: 'Ada', email: 'ada@example.com', company: 'Acme \u202Eexe.pdf' }],
    ['bidi isolate in the name', { name: 'Eve \u2066x\u2069', email: 'ada@example.com' }],
    ['zero-width non-joiner (a Persian name)', { name: 'محمد\u200Cرضا', email: 'ada@example.com' }],
    ['zero-width joiner (an emoji sequence)', { name: 'Ana 👩\u200D💻', email: 'ada@example.com' }],
    ['interlinear annotation', { name: 'Ada\uFFF9x\uFFFAy\uFFFB', email: 'ada@example.com' }],
    ...TEXTS_WITH_INVISIBLES.map((text): [string, WaitlistFormInput] => [
      `invisibles inside ${JSON.stringify(text)}`,
      { name: text, email: 'ada@example.com', company: text },
    ]),
  ]

  it.each(cases)('%s', async (_, input) => {
    await checkAgreement(input)
  })
})

describe('blank to the eye on both sides (issue #66, finding 6)', () => {
  it.each(BLANK_TEXTS)('a name of %s is missing, a company of it none', async (_, text) => {
    const name = { name: text, email: 'ada@example.com' }
    await checkAgreement(name)
    expect(validateWaitlistInput(name)).toMatchObject({ ok: false, errors: { name: 'required' } })
    await checkAgreement({ name: 'Ada', email: 'ada@example.com', company: text })
    expect(await insertAsAnon({ name: 'Ada', email: 'ada@example.com', project: text })).toEqual({
      ok: true,
      stored: { name: 'Ada', email: 'ada@example.com', project: '' },
    })
  })
})

describe('form rules and database agree on generated inputs', () => {
  const whitespace = fc.constantFrom(...WAITLIST_WHITESPACE)
  // Characters that look like whitespace to some engine but are in neither list.
  const lookalike = fc.constantFrom('\u200B', '\u0085', '\u180E', '\u2060', '\u00AD')
  // Any character that shows nothing (WAITLIST_INVISIBLE_CLASS): blank alone, kept among others. Half
  // of them from the Basic Multilingual Plane, or the 4,096 of the tag block would be nearly all.
  const invisible = fc
    .oneof(fc.constantFrom(...INVISIBLE_CODE_POINTS.filter((code) => code <= 0xffff)), fc.constantFrom(...INVISIBLE_CODE_POINTS))
    .map((code) => String.fromCodePoint(code))
  const padding = fc.string({
    unit: fc.oneof({ weight: 4, arbitrary: whitespace }, { weight: 1, arbitrary: lookalike }, { weight: 1, arbitrary: invisible }),
    maxLength: 3,
  })
  const padded = (core: fc.Arbitrary<string>) => fc.tuple(padding, core, padding).map(([before, text, after]) => before + text + after)

  const nearLimit = (limit: number) =>
    fc.tuple(fc.integer({ min: limit - 3, max: limit + 3 }), fc.constantFrom('a', 'é', '😀', '李')).map(([n, unit]) => unit.repeat(n))

  const text = (limit: number) =>
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 12 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.string({ unit: whitespace, maxLength: 3 }),
      fc.string({ unit: fc.oneof(invisible, whitespace), maxLength: 4 }),
      fc.string({ unit: fc.oneof({ weight: 2, arbitrary: invisible }, { weight: 1, arbitrary: fc.constantFrom('a', 'ی', '👩', '\u0007') }), maxLength: 6 }),
      nearLimit(limit),
      fc.constant(''),
    )

  const label = fc.oneof(
    { weight: 6, arbitrary: fc.stringMatching(/^[a-z0-9-]{1,10}$/) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 4 }) },
  )
  const emailCore = fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(
          fc.oneof(fc.stringMatching(/^[a-z0-9._+-]{1,12}$/), fc.string({ unit: 'binary', maxLength: 6 })),
          fc.constantFrom('@', '@', '@', '', '@@'),
          fc.array(label, { minLength: 0, maxLength: 4 }),
        )
        .map(([local, at, labels]) => `${local}${at}${labels.join('.')}`),
    },
    { weight: 1, arbitrary: fc.integer({ min: 250, max: 258 }).map((n) => emailOfLength(n)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  )

  const input: fc.Arbitrary<WaitlistFormInput> = fc.record({
    name: padded(text(100)),
    email: padded(emailCore),
    company: fc.option(padded(text(200)), { nil: undefined }),
  })

  it('for every generated input, the form accepts it iff the database stores it', async () => {
    await fc.assert(
      fc.asyncProperty(input, async (generated) => {
        await checkAgreement(generated)
      }),
      { numRuns: 300 },
    )
  })
})
