/**
 * CSV for the owner's waitlist export: RFC 4180 (CRLF records, fields quoted
 * when they hold a quote, comma, CR or LF, quotes doubled), plus a guard
 * against formula injection. Sign-ups are written by anonymous visitors, and
 * a name like `=HYPERLINK(...)` would otherwise run as a formula when the
 * file is opened in a spreadsheet. Pure; no imports.
 */

export interface WaitlistEntry {
  id: string
  name: string
  email: string
  project: string
  created_at: string
}

export const WAITLIST_CSV_COLUMNS = ['created_at', 'name', 'email', 'project'] as const

// = + - @ are OWASP's formula triggers; tab and CR can start one after a spreadsheet trims.
const FORMULA_START = /^[=+\-@\t\r]/

export function csvCell(value: string | number | boolean | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value)
  if (FORMULA_START.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export function toCsv(rows: readonly (readonly (string | number | boolean | null | undefined)[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('')
}

export interface WaitlistCsvOptions {
  /** Prefix a UTF-8 byte order mark so Excel reads accented names correctly. */
  bom?: boolean
}

export function waitlistToCsv(entries: readonly WaitlistEntry[], options: WaitlistCsvOptions = {}): string {
  const csv = toCsv([WAITLIST_CSV_COLUMNS, ...entries.map((entry) => WAITLIST_CSV_COLUMNS.map((column) => entry[column]))])
  return options.bom ? `\uFEFF${csv}` : csv
}
