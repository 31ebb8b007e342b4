import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { csvCell, neutraliseFormulas, toCsv, waitlistToCsv, type WaitlistEntry } from '@/tools/owner/csv'

describe('csvCell', () => {
  it.each([
    ['plain', 'Ada Lovelace', 'Ada Lovelace'],
    ['empty', '', ''],
    ['null', null, ''],
    ['undefined', undefined, ''],
    ['number', 42, '42'],
    ['comma', 'Acme, Inc.', '"Acme, Inc."'],
    ['quote', 'The "Engine"', '"The ""Engine"""'],
    ['line feed', 'two\nlines', '"two\nlines"'],
    ['carriage return', 'two\rlines', '"two\rlines"'],
    ['unicode', 'Zoë 😀', 'Zoë 😀'],
    ['leading =', '=1+1', "'=1+1"],
    ['leading +', '+49 30 1234', "'+49 30 1234"],
    ['leading -', '-2+3', "'-2+3"],
    ['leading @', '@SUM(A1:A2)', "'@SUM(A1:A2)"],
    ['leading tab', '\t=1', "'\t'=1"],
    // A semicolon-locale spreadsheet splits here: each part is a cell of its own.
    ['formula after a semicolon', 'Acme;=1+1', "Acme;'=1+1"],
    ['formula after a semicolon and spaces', 'Acme;  @SUM(A1)', "Acme;  '@SUM(A1)"],
    ['formula after a pipe', 'a|-2+3', "a|'-2+3"],
    ['formula after a comma', 'a,+1', '"a,\'+1"'],
    ['formula after a line break', 'Acme\n=HYPERLINK("x")', '"Acme\n\'=HYPERLINK(""x"")"'],
    ['formula after a tab', 'a\t=1', "a\t'=1"],
    ['hyphen inside a name', 'Jean-Luc; Marie-Claire', 'Jean-Luc; Marie-Claire'],
    ['formula that also needs quotes', '=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ['= later in the text', 'a=b', 'a=b'],
    ['e-mail with a plus', 'ada+waitlist@example.com', 'ada+waitlist@example.com'],
  ])('%s', (_, value, expected) => {
    expect(csvCell(value)).toBe(expected)
  })
})

describe('toCsv', () => {
  it('ends every record with CRLF (RFC 4180)', () => {
    expect(
      toCsv([
        ['a', 'b'],
        ['1', '2'],
      ]),
    ).toBe('a,b\r\n1,2\r\n')
  })

  it('round-trips through a strict RFC 4180 reader', () => {
    const rows = [['x, y', 'say "hi"', 'multi\r\nline', '', 'plain']]
    expect(parseCsv(toCsv(rows))).toEqual(rows)
  })
})

describe('waitlistToCsv', () => {
  const HEADER =
    'created_at,status,confirmed_at,invited_at,joined_at,name,email,project,utm_source,utm_medium,utm_campaign,referrer_host,landing_path,flag,referral_credits,referred_by,updates,updates_opted_in_at,updates_stopped_at,language,earlier_answers'
  const entry: WaitlistEntry = {
    id: '00000000-0000-4000-8000-000000000000',
    name: '=cmd|" /C calc"!A0',
    email: 'ada@example.com',
    project: 'Acme, Inc.',
    created_at: '2026-11-22T13:00:00+00:00',
    status: 'invited',
    confirmed_at: '2026-11-22T13:05:00+00:00',
    invited_at: '2026-11-23T09:00:00+00:00',
    joined_at: null,
    utm_source: '@newsletter',
    utm_medium: null,
    utm_campaign: null,
    referrer_host: 'news.example',
    landing_path: '/pricing',
    flag: null,
    referral_credits: 2,
    referred_by: null,
    updates: true,
    updates_opted_in_at: '2026-11-22T13:00:00+00:00',
    updates_stopped_at: null,
    language: 'en',
  }

  it('writes a header and one record per entry, without the internal id', () => {
    expect(waitlistToCsv([entry])).toBe(
      `${HEADER}\r\n2026-11-22T13:00:00+00:00,invited,2026-11-22T13:05:00+00:00,2026-11-23T09:00:00+00:00,,"'=cmd|"" /C calc""!A0",ada@example.com,"Acme, Inc.",'@newsletter,,,news.example,/pricing,,2,,true,2026-11-22T13:00:00+00:00,,en,\r\n`,
    )
  })

  it('names a referrer by e-mail (never by internal id), formula-safe like every cell', () => {
    const referrer: WaitlistEntry = { ...entry, id: '11111111-1111-4111-8111-111111111111', email: '+1@example.com' }
    const friend: WaitlistEntry = {
      ...entry,
      id: '22222222-2222-4222-8222-222222222222',
      email: 'friend@example.com',
      referral_credits: 0,
      referred_by: referrer.id,
    }
    const lines = waitlistToCsv([referrer, friend]).split('\r\n')
    expect(lines[2]).toMatch(/,0,'\+1@example\.com,true,/)
    expect(waitlistToCsv([referrer, friend])).not.toContain(referrer.id)
  })

  it('writes only the header for an empty list', () => {
    expect(waitlistToCsv([])).toBe(`${HEADER}\r\n`)
  })

  it('can prefix a UTF-8 byte order mark for Excel', () => {
    expect(waitlistToCsv([], { bom: true })).toBe(`\uFEFF${HEADER}\r\n`)
  })

  it('writes a column per question published now, and earlier questions’ answers readable in the last, formula-safe', () => {
    const answered: WaitlistEntry = {
      ...entry,
      answers: {
        role: { question: 'What is your role?', kind: 'one', options: ['product-manager'], labels: ['Product manager'] },
        tools: { question: 'Tools?', kind: 'many', options: ['slack', 'jira'], labels: ['Slack', 'Jira'] },
        goal: { question: 'What would you ask?', kind: 'text', text: '=HYPERLINK("http://evil.example")' },
        size: { question: 'Team size (old)', kind: 'one', options: ['1-10'], labels: ['1 to 10'] },
      },
    }
    const csv = waitlistToCsv([answered, entry], { questions: ['role', 'tools', 'goal', 'budget'] })
    const [header, first, second] = parseCsv(csv)
    expect(header!.slice(-5)).toEqual(['answer_role', 'answer_tools', 'answer_goal', 'answer_budget', 'earlier_answers'])
    expect(first!.slice(-5)).toEqual(['product-manager', 'slack; jira', `'=HYPERLINK("http://evil.example")`, '', 'size (Team size (old)): 1 to 10'])
    expect(second!.slice(-5)).toEqual(['', '', '', '', ''])
  })
  it('ends with the rewards earned while a ladder is in use ("rung:status;…"), and has no such column without one', () => {
    const rewarded: WaitlistEntry = { ...entry, rewards: 'skip-ahead:granted;founding-call:held' }
    const [header, first, second] = parseCsv(waitlistToCsv([rewarded, entry], { rewards: true }))
    expect(header!.slice(-2)).toEqual(['earlier_answers', 'rewards'])
    expect(first!.at(-1)).toBe('skip-ahead:granted;founding-call:held')
    expect(second!.at(-1)).toBe('')
    expect(waitlistToCsv([rewarded]).split('\r\n')[0]).toBe(HEADER)
    expect(waitlistToCsv([rewarded])).not.toContain('skip-ahead')
  })
})

describe('the formula guard, whatever the delimiter', () => {
  const TRIGGER = /^[=+\-@\t\r]/
  it('leaves no cell starting with a trigger, however the export is split (comma, semicolon, tab, pipe, line breaks)', () => {
    const unit = fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', ',', ';', '|', ' ', '"', 'a', 'Z', '1', 'é')
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 12 }), { minLength: 1, maxLength: 4 }), (cells) => {
        const csv = toCsv([cells])
        // The crudest reader: any of these characters ends a cell, quotes are just removed.
        for (const piece of csv.replaceAll('"', '').split(/[\r\n,;\t|]/)) {
          expect(piece.replace(/^ +/, ''), JSON.stringify({ cells, csv })).not.toMatch(/^[=+\-@]/)
        }
        // And the values still read back exactly, apart from the apostrophes added.
        expect(parseCsv(csv)).toEqual([cells.map(neutraliseFormulas)])
      }),
      { numRuns: 1000 },
    )
    expect(TRIGGER.test(neutraliseFormulas('=1'))).toBe(false)
  })

  it("counts no formula cells in the issue's semicolon-locale case", () => {
    const names = Array.from({ length: 18 }, (_, i) => `Person ${i};=HYPERLINK("http://evil.example/${i}")`)
    const csv = toCsv(names.map((name) => [name]))
    const cells = csv.replaceAll('"', '').split(/[;\r\n]+/)
    expect(cells.filter((cell) => /^[=+\-@]/.test(cell))).toEqual([])
  })
})

/** A minimal strict RFC 4180 reader for the round-trip check. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (char === '"') {
        quoted = false
      } else {
        field += char
      }
    } else if (char === '"') {
      quoted = true
    } else if (char === ',') {
      row.push(field)
      field = ''
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i++
    } else {
      field += char
    }
  }
  return rows
}
