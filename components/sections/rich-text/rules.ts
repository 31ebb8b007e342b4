// Shared by the rich-text schema (Studio) and its renderer (site), which must not load the Studio.

/** Schemes an external link in rich text may use: no javascript:, data: or other tricks. */
export const RICH_TEXT_LINK_SCHEMES = ['http', 'https', 'mailto']

export const CALLOUT_TONES = [
  { title: 'Note', value: 'note' },
  { title: 'Important', value: 'important' },
] as const
