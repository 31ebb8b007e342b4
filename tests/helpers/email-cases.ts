/**
 * The shared list of e-mail cases: the browser's rule (components/waitlist/email.ts) and the database's
 * (waitlist_rules.* in the migration) are both checked against it, and its domains against Node's
 * url.domainToASCII. Each case says what a person would expect.
 */
export interface EmailCase {
  label: string
  input: string
  /** The stored spelling, or null when the address must be refused. */
  stored: string | null
}

const ZWSP = '\u200B'

/** Nine spellings of one address from the issue, each of which used to be stored as its own row. */
export const LOOK_ALIKES: readonly string[] = [
  'ada@example.com',
  `a${ZWSP}da@example.com`,
  '\uFF41\uFF44\uFF41@\uFF45\uFF58\uFF41\uFF4D\uFF50\uFF4C\uFF45.\uFF43\uFF4F\uFF4D', // full-width
  'a\u00ADda@example.com', // soft hyphen
  'ad\u2060a@example.com', // word joiner
  'a\u200Dd\u200Ca@example.com', // joiners
  '\u{1D41A}\u{1D41D}\u{1D41A}@example.com', // mathematical bold
  'ada@EXAMPLE.com',
  'ada@example\uFF0Ecom', // full-width full stop
]

/** Junk the old rule stored as sent (the issue lists eight of these). */
export const JUNK: readonly string[] = [
  '["ada@example.com"]',
  'a@<svg/onload=alert(1)>.example',
  'ada\u0007@example.com', // bell
  'ada\u202E@example.com', // right-to-left override
  '<ada@example.com>',
  '"ada lovelace"@example.com',
  'ada lovelace@example.com',
  'ada@[127.0.0.1]',
  'ada@exa_mple.com',
  'ada@-example.com',
  'ada@example.123',
  'ada@ex\u202Eample.com',
  'ada(comment)@example.com',
  'ada,bob@example.com',
  'ada;bob@example.com',
  'ada\\@example.com',
  'ada@example.com\u0000',
  'a\u001B[31m@example.com', // CSI
  '\u2066ada@example.com\u2069', // isolates
]

export const EMAIL_CASES: readonly EmailCase[] = [
  ...LOOK_ALIKES.map((input, i) => ({ label: `look-alike ${i + 1}`, input, stored: 'ada@example.com' })),
  ...JUNK.map((input, i) => ({ label: `junk ${i + 1}`, input, stored: null })),
  { label: 'composed josé', input: 'jos\u00E9@example.com', stored: 'jos\u00E9@example.com' },
  { label: 'decomposed josé', input: 'jose\u0301@example.com', stored: 'jos\u00E9@example.com' },
  { label: 'apostrophe', input: "o'brien@example.ie", stored: "o'brien@example.ie" },
  { label: 'plus tag, upper-case local part kept', input: 'Ada+Waitlist@Mail.Example.CO.UK', stored: 'Ada+Waitlist@mail.example.co.uk' },
  { label: 'German IDN', input: 'kontakt@Bücher.de', stored: 'kontakt@xn--bcher-kva.de' },
  { label: 'Spanish IDN', input: 'hola@mañana.com', stored: 'hola@xn--maana-pta.com' },
  { label: 'Japanese IDN with an ideographic full stop', input: 'info@例え\u3002テスト', stored: 'info@xn--r8jz45g.xn--zckzah' },
  { label: 'Cyrillic IDN', input: 'info@пример.рф', stored: 'info@xn--e1afmkfd.xn--p1ai' },
  { label: 'Greek upper-case IDN', input: 'info@ΠΑΡΆΔΕΙΓΜΑ.gr', stored: 'info@xn--hxajbheg2az3al.gr' },
  { label: 'already punycode', input: 'info@xn--bcher-kva.de', stored: 'info@xn--bcher-kva.de' },
  { label: 'snowman', input: 'x@☃.net', stored: 'x@xn--n3h.net' },
  { label: 'non-ASCII local part', input: 'zoë@example.de', stored: 'zoë@example.de' },
  { label: 'emoji local part', input: '😀@example.com', stored: '😀@example.com' },
  { label: 'trailing dot', input: 'ada@example.com.', stored: null },
  { label: 'double dot in local part', input: 'a..da@example.com', stored: null },
  { label: 'label of 63', input: `a@${'b'.repeat(63)}.com`, stored: `a@${'b'.repeat(63)}.com` },
  { label: 'label of 64', input: `a@${'b'.repeat(64)}.com`, stored: null },
]
