import type { SectionOf, SectionType, SiteSettings } from '@/sanity/content'

/** What a section's Markdown needs besides its content: the site's words, and where addresses are made absolute. */
export type MarkdownContext = { settings: SiteSettings; siteUrl: string }

/**
 * A section's words in reading order, as its Markdown twin carries them (beside its component, in
 * its folder). `level` is its heading's: 1 for the section that gives the page its h1, else 2.
 */
export type SectionMarkdown<T extends SectionType> = (section: SectionOf<T>, level: 1 | 2, context: MarkdownContext) => string
