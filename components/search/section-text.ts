import type { Section } from '@/sanity/content'

// The words a reader sees in a page's sections, in reading order, for the search index. Sections
// differ in shape (a hero, a pricing table, an FAQ, rich text), so this reads every string of a
// section as the content layer reshaped it, leaving out the fields that are not words shown on
// the page: ids, addresses, styles, icons, images' data, and the hero's scripted demo.
const NOT_WORDS: ReadonlySet<string> = new Set([
  '_type',
  '_key',
  '_ref',
  '_sanityAsset',
  'key',
  'id',
  'anchorId',
  'style',
  'listItem',
  'marks',
  'markDefs',
  'icon',
  'layout',
  'tone',
  'kind',
  'href',
  'url',
  'path',
  'slug',
  'language',
  'asset',
  'hotspot',
  'crop',
  'currency',
  'lastUpdated',
  'visual',
  'seo',
])

/** One section's words, or none for a hidden one. */
export function sectionText(section: Section): string {
  if ((section as { hidden?: boolean | null }).hidden === true) return ''
  const words: string[] = []
  collect(section, words)
  return words.join('\n')
}

export const sectionsText = (sections: readonly Section[]) => sections.map(sectionText).filter(Boolean).join('\n')

function collect(value: unknown, words: string[]): void {
  if (typeof value === 'string') {
    if (value.trim()) words.push(value)
    return
  }
  if (Array.isArray(value)) {
    for (const item of value) collect(item, words)
    return
  }
  if (!value || typeof value !== 'object') return
  const record = value as Record<string, unknown>
  // A rich-text paragraph: its spans make one line (a bold half-word stays one word).
  if (record._type === 'block' && Array.isArray(record.children)) {
    const line = record.children.map((child) => (typeof (child as { text?: unknown }).text === 'string' ? (child as { text: string }).text : '')).join('')
    if (line.trim()) words.push(line)
    return
  }
  for (const [key, child] of Object.entries(record)) if (!NOT_WORDS.has(key)) collect(child, words)
}
