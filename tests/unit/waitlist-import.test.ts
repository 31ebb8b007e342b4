/**
 * Reading and checking a list brought from another tool (tools/owner/import.ts), as a careless
 * export and an attacker's file would have it: every bad row reported by its line with a reason
 * (formula injection, odd Unicode, duplicates in any spelling, a 10 MB line, broken quotes, bad
 * times and answers), every good row normalised as the form would, and the rows after a bad one
 * still read. What the database does with them: tests/integration/waitlist-import*.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { chunksOf, csvRecords, importText, planImport, readSignUpTime, type ImportPlan } from '@/tools/owner/import'
import { mailboxKey } from '@/components/waitlist/email'
import type { PublishedQuestion } from '@/sanity/questions/rules'
import { BLANK_TEXTS } from '../helpers/blank-text'
import { ROLE_QUESTION } from '../helpers/questions'

const QUESTIONS: PublishedQuestion[] = [
  { ...ROLE_QUESTION, required: true },
  {
    key: 'tools',
    kind: 'many',
    required: false,
    labels: { en: 'Which tools?' },
    options: [
      { key: 'slack', labels: { en: 'Slack' } },
      { key: 'jira', labels: { en: 'Jira' } },
    ],
  },
  { key: 'goal', kind: 'text', required: false, labels: { en: 'What would you ask?' }, options: [] },
]
const NOW = new Date('2026-11-28T12:00:00Z')

function plan(text: string): ImportPlan {
  const read = planImport(text, QUESTIONS, NOW)
  if ('problem' in read) throw new Error(read.problem)
  return read
}
const reasons = (read: ImportPlan) => Object.fromEntries(read.bad.map((row) => [row.line, row.reason]))

describe('csvRecords', () => {
  it('reads quotes, doubled quotes, line breaks inside quotes and every line ending, with the line each record starts on', () => {
    const text = 'a,b\r\n"x, ""y""","multi\nline"\nplain,\r"last",end'
    expect([...csvRecords(text)]).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, "y"', 'multi\nline'] },
      { line: 4, fields: ['plain', ''] },
      { line: 5, fields: ['last', 'end'] },
    ])
  })

  it('reports a 10 MB line by its number, without keeping it, and reads the records after it', () => {
    const huge = 'x'.repeat(10 * 1024 * 1024)
    const records = [...csvRecords(`name,email\n${huge},a@example.com\n"${huge}",b@example.com\nAnn,ann@example.com\n`)]
    expect(records).toEqual([
      { line: 1, fields: ['name', 'email'] },
      { line: 2, problem: 'longer than 16,384 characters' },
      { line: 3, problem: 'longer than 16,384 characters' },
      { line: 4, fields: ['Ann', 'ann@example.com'] },
    ])
  })

  it('reports broken quotes at their line and goes on', () => {
    const records = [...csvRecords('a,b\nAn"n,x\n"Bo"b,y\nCat,z\n"never closed,\nmore\n')]
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, problem: 'a quote inside a value that does not start with one' },
      { line: 3, problem: 'text after a closing quote (a quote inside a value is written twice: "")' },
      { line: 4, fields: ['Cat', 'z'] },
      { line: 5, problem: 'a quoted value is never closed' },
    ])
  })
})

describe('planImport', () => {
  it('normalises good rows as the form does, reads answers by key or by their words, and ranks the rows with a time', () => {
    const read = plan(
      [
        '\uFEFFName,E-mail,Company,Signed up,Source,Language,role,answer_tools,goal,referrals',
        ' Ada Lovelace ,ADA@Example.COM,Analytical,2026-03-14T09:30:00Z,getwaitlist,en,Product manager,"slack; JIRA",Why churn?,12',
        'Bea,bea@bücher.example,,2026-01-02,,DE,gründerin,,,',
        'Cy,cy@example.com,,,,,,,,',
      ].join('\n'),
    )
    expect(read.bad).toEqual([])
    expect(read.ignored).toEqual(['referrals'])
    expect(read.rows).toEqual([
      {
        line: 2,
        name: 'Ada Lovelace',
        email: 'ADA@example.com',
        project: 'Analytical',
        signed_up_at: '2026-03-14T09:30:00.000Z',
        source: 'getwaitlist',
        language: 'en',
        answers: { role: 'product-manager', tools: ['slack', 'jira'], goal: 'Why churn?' },
        rank: 2,
      },
      {
        line: 3,
        name: 'Bea',
        email: 'bea@xn--bcher-kva.example',
        project: '',
        signed_up_at: '2026-01-02T00:00:00.000Z',
        source: null,
        language: 'de',
        answers: { role: 'founder' },
        rank: 1,
      },
      { line: 4, name: 'Cy', email: 'cy@example.com', project: '', signed_up_at: null, source: null, language: 'en', answers: {}, rank: null },
    ])
  })

  it('reports formula injection, odd Unicode, bad addresses, lengths, times, options and column counts by line', () => {
    const read = plan(
      [
        'name,email,project,signed_up_at,source,role,goal',
        '"=HYPERLINK(""http://evil.example"",""x"")",a1@example.com,,,,,',
        'Ann,a2@example.com,@SUM(A1),,,,',
        'Ann,a3@example.com,,,+cmd,,',
        'Ann,a4@example.com,,,,,-1+2',
        'Ann\u202Egnp.exe,a5@example.com,,,,,',
        'Ann\u0007,a6@example.com,,,,,',
        'Ann,a7@exam ple.com,,,,,',
        `${'n'.repeat(101)},a8@example.com,,,,,`,
        'Ann,a9@example.com,,2031-01-01,,,',
        'Ann,a10@example.com,,14/03/2026,,,',
        'Ann,a11@example.com,,2026-02-30,,,',
        'Ann,a12@example.com,,,,ceo,',
        'Ann,a13@example.com,,,,,,extra',
        'Ann,a14@example.com,,,bad\u200Bsource,,',
        'Ann\uFFFD,a15@example.com,,,,,',
        ',a16@example.com,,,,,',
        `Ann,a17@example.com,,,,,${'g'.repeat(201)}`,
      ].join('\n'),
    )
    expect(read.rows).toEqual([])
    expect(reasons(read)).toEqual({
      2: 'the name starts with "=", which a spreadsheet runs as a formula',
      3: 'the project starts with "@", which a spreadsheet runs as a formula',
      4: 'the source starts with "+", which a spreadsheet runs as a formula',
      5: 'the answer to "goal" starts with "-", which a spreadsheet runs as a formula',
      6: 'the name holds control, line-break or text-direction characters',
      7: 'the name holds control, line-break or text-direction characters',
      8: 'the e-mail address is not an address mail can reach',
      9: 'the name is too long',
      10: 'the sign-up time is in the future',
      11: 'the sign-up time is not a date the import reads (write 2026-03-14 or 2026-03-14T09:30:00Z)',
      12: 'the sign-up time is not a real date',
      13: 'the answer to "role" is not one of its options (product-manager, founder): "ceo"',
      14: 'has 8 values, the header names 7',
      15: 'the source holds control, line-break or text-direction characters',
      16: 'holds bytes that are not UTF-8 (save the file as UTF-8)',
      17: 'the name is empty',
      18: 'the answer to "goal" is over 200 characters',
    })
  })

  it('reports a name of invisible characters alone as empty, by its line, and takes a blank project, source or answer as none', () => {
    const blank = '\u3164\u{E0041}\u00AD\u180E'
    const read = plan(
      [
        'name,email,project,source,goal',
        ...BLANK_TEXTS.map(([, text], index) => `${text},b${index}@example.com,,,`),
        `Ann,ann@example.com,${blank},${blank},${blank}`,
      ].join('\n'),
    )
    expect(reasons(read)).toEqual(Object.fromEntries(BLANK_TEXTS.map((_, index) => [index + 2, 'the name is empty'])))
    expect(read.rows).toEqual([
      {
        line: BLANK_TEXTS.length + 2,
        name: 'Ann',
        email: 'ann@example.com',
        project: '',
        signed_up_at: null,
        source: null,
        language: 'en',
        answers: {},
        rank: null,
      },
    ])
  })

  it('reports a mailbox named twice in any spelling, keeping its first line', () => {
    const read = plan(
      [
        'name,email',
        'Ann,ann.lee@gmail.com',
        'Ann again,AnnLee+waitlist@googlemail.com',
        'Ann in full width,ａｎｎ．ｌｅｅ@gmail.com',
        'Bob,bob@ＥＸＡＭＰＬＥ.com',
        'Bob twice,BOB@example.com',
        'Zed,zed@xn--bcher-kva.example',
        'Zed again,zed@bücher.example',
      ].join('\n'),
    )
    expect(read.rows.map((row) => row.line)).toEqual([2, 5, 7])
    expect(reasons(read)).toEqual({
      3: 'the same mailbox as line 2',
      4: 'the same mailbox as line 2',
      6: 'the same mailbox as line 5',
      8: 'the same mailbox as line 7',
    })
  })

  it('refuses a file it cannot read at all', () => {
    expect(planImport('', QUESTIONS, NOW)).toEqual({ problem: 'the file is empty' })
    expect(planImport('mail,who\nx,y', QUESTIONS, NOW)).toEqual({
      problem: 'its header names no "name" and "email" columns (the first line must name the columns)',
    })
    expect(planImport('"name,email\nx,y', QUESTIONS, NOW)).toEqual({ problem: 'its header (line 1) cannot be read: a quoted value is never closed' })
  })

  it('reports by its line a row in a language the site does not publish, which the database would refuse', () => {
    const read = planImport(
      'name,email,language\nAnn,ann@example.com,fr\nBo,bo@example.com,xx-yy\nCy,cy@example.com,en-US\nDe,de@example.com,DE\n',
      QUESTIONS,
      NOW,
      ['de', 'en'],
    )
    if ('problem' in read) throw new Error(read.problem)
    expect(reasons(read)).toEqual({
      2: 'the language fr is not one the site publishes (de, en)',
      3: 'the language xx-yy is not one the site publishes (de, en)',
      4: 'the language en-us is not one the site publishes (de, en)',
    })
    expect(read.rows.map((row) => row.language)).toEqual(['de'])
  })
})

describe('importText', () => {
  const csv = 'name,email\nAnn,ann@example.com\n'
  const utf16le = (text: string) => Buffer.from(text, 'utf16le')
  const notUtf8 = { problem: 'it is not UTF-8 (it looks like UTF-16): save it as CSV UTF-8' }

  it('names a UTF-16 file as such, with its byte-order mark or without, in either byte order', () => {
    expect(importText(Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le(csv)]))).toEqual(notUtf8)
    expect(importText(utf16le(csv))).toEqual(notUtf8)
    expect(importText(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16le(csv).swap16()]))).toEqual(notUtf8)
  })

  it('reads UTF-8, its byte-order mark or a stray zero byte in a row left to the row checks', () => {
    expect(importText(Buffer.from(`\uFEFF${csv}`))).toEqual({ text: `\uFEFF${csv}` })
    const stray = `${csv}Bo\u0000,bo@example.com\n`
    expect(importText(Buffer.from(stray))).toEqual({ text: stray })
  })
})

describe('readSignUpTime', () => {
  it('reads ISO dates and times with any zone, as our own export and Postgres write them', () => {
    expect(readSignUpTime('2026-03-14 09:30:00.123456+02', NOW)).toEqual({ time: '2026-03-14T07:30:00.123Z' })
    expect(readSignUpTime('2026-03-14T09:30-05:30', NOW)).toEqual({ time: '2026-03-14T15:00:00.000Z' })
    expect(readSignUpTime('1999-12-31', NOW)).toEqual({ problem: 'the sign-up time is before 2000' })
    expect(readSignUpTime('', NOW)).toEqual({ time: null })
  })
})

describe('mailboxKey', () => {
  it('folds what the providers document as one inbox, and nothing else', () => {
    expect(mailboxKey('A.B+x@googlemail.com')).toBe('ab@gmail.com')
    expect(mailboxKey('a.b+x@outlook.com')).toBe('a.b@outlook.com')
    expect(mailboxKey('a.b+x@example.com')).toBe('a.b+x@example.com')
    expect(mailboxKey('me@pm.me')).toBe('me@proton.me')
  })
})

describe('chunksOf', () => {
  it('cuts by rows and by size, never leaving an empty chunk', () => {
    const sizes = [5, 5, 5, 20, 1]
    expect([...chunksOf(sizes, (size) => size, { maxRows: 2, maxChars: 12 })]).toEqual([[5, 5], [5], [20], [1]])
  })
})
