import { describe, expect, it } from 'vitest'
import { csvCell, toCsv, waitlistToCsv, type WaitlistEntry } from '@/lib/waitlist/csv'

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
    ['leading tab', '\t=1', "'\t=1"],
    ['formula that also needs quotes', '=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
    ['= later in the text', 'a=b', 'a=b'],
    ['e-mail with a plus', 'ada+waitlist@example.com', 'ada+waitlist@example.com'],
  ])('%s', (_, value, expected) => {
    expect(csvCell(value)).toBe(expected)
  })
})

describe('toCsv', () => {
  it('ends every record with CRLF (RFC 4180)', () => {
    expect(toCsv([['a', 'b'], ['1', '2']])).toBe('a,b\r\n1,2\r\n')
  })

  it('round-trips through a strict RFC 4180 reader', () => {
    const rows = [['x, y', 'say "hi"', 'multi\r\nline', '', 'plain']]
    expect(parseCsv(toCsv(rows))).toEqual(rows)
  })
})

describe('waitlistToCsv', () => {
  const entry: WaitlistEntry = {
    id: '00000000-0000-4000-8000-000000000000',
    name: '=cmd|" /C calc"!A0',
    email: 'ada@example.com',
    project: 'Acme, Inc.',
    created_at: '2026-11-22T13:00:00+00:00',
  }

  it('writes a header and one record per entry, without the internal id', () => {
    expect(waitlistToCsv([entry])).toBe(
      'created_at,name,email,project\r\n2026-11-22T13:00:00+00:00,"\'=cmd|"" /C calc""!A0",ada@example.com,"Acme, Inc."\r\n',
    )
  })

  it('writes only the header for an empty list', () => {
    expect(waitlistToCsv([])).toBe('created_at,name,email,project\r\n')
  })

  it('can prefix a UTF-8 byte order mark for Excel', () => {
    expect(waitlistToCsv([], { bom: true })).toBe('\uFEFFcreated_at,name,email,project\r\n')
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
