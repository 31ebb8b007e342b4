// Shared by the rich-text schema (Studio) and its renderer (site), which must not load the Studio.

/** Schemes an external link in rich text may use: no javascript:, data: or other tricks. */
export const RICH_TEXT_LINK_SCHEMES = ['http', 'https', 'mailto']

export const CALLOUT_TONES = [
  { title: 'Note', value: 'note' },
  { title: 'Important', value: 'important' },
] as const

/**
 * The languages a code block may be written in: the Studio offers these, and the site's
 * highlighter loads exactly these grammars (a code block in any other renders as plain text).
 */
export const CODE_LANGUAGES = [
  { title: 'TypeScript', value: 'typescript' },
  { title: 'JavaScript', value: 'javascript' },
  { title: 'JSON', value: 'json' },
  { title: 'Shell', value: 'sh' },
  { title: 'SQL', value: 'sql' },
  { title: 'HTML', value: 'html' },
  { title: 'CSS', value: 'css' },
  { title: 'Plain text', value: 'text' },
] as const
