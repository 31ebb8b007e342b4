import type { Section } from './types'
import { warnOnce } from '@/lib/warn-once'

// The sample rule: anything a marketer flags "Sample content" (a made-up logo, testimonial or
// photo) is shown, marked, on a developer's machine and in previews, and never on a deployed
// site (SAMPLE_CONTENT in lib/env/index.ts). Pure, so it is tested over the seed without Next.

type Flagged = { isSample?: boolean | null }

const isFlagged = (value: unknown): boolean => Boolean(value && typeof value === 'object' && (value as Flagged).isSample === true)

/** How the build log names a hidden item: its name, author, alt text or title. */
function describe(value: unknown): string {
  const item = value as Record<string, unknown>
  const name = [item.name, item.author, item.alt, item.title].find((text) => typeof text === 'string' && text !== '')
  return name ? `"${String(name)}"` : `(${String(item._key ?? 'unnamed')})`
}

/**
 * Removes every flagged value from a section: items from its lists, a flagged object (such as the
 * closing call to action's testimonial) becomes null. Returns null when the section is flagged
 * itself, or a list it shows is left empty by the removal (a logo strip with no logos hides).
 */
function stripSection(section: Section, hidden: string[]): Section | null {
  const kind = section._type.replace(/Section$/, '')
  if (isFlagged(section)) {
    hidden.push(`${kind} ${describe(section)}`)
    return null
  }
  let emptied = false
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      const kept = value.filter((item) => {
        if (!isFlagged(item)) return true
        hidden.push(`${kind} item ${describe(item)}`)
        return false
      })
      if (value.length > 0 && kept.length === 0) emptied = true
      return kept.map(strip)
    }
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([key, child]) => {
          if (!isFlagged(child)) return [key, strip(child)]
          hidden.push(`${kind} ${key} ${describe(child)}`)
          return [key, null]
        }),
      )
    }
    return value
  }
  const stripped = strip(section) as Section
  return emptied ? null : stripped
}

/** The sections a deployed site shows, and a line per sample item it left out (for the build log). */
export function withoutSamples(sections: Section[]): { sections: Section[]; hidden: string[] } {
  const hidden: string[] = []
  const kept = sections.map((section) => stripSection(section, hidden)).filter((section): section is Section => section !== null)
  return { sections: kept, hidden }
}

/**
 * Applies the sample rule to a page's sections: unchanged when samples are shown; otherwise
 * without them, and the build log says once per page what was left out, so a founder sees
 * which made-up logos or quotes still wait for real ones.
 */
export function applySampleRule<P extends { sections: Section[] }>(page: P, where: string, mode: 'show' | 'hide'): P {
  if (mode === 'show') return page
  const { sections, hidden } = withoutSamples(page.sections)
  const line = hidden.join(', ')
  if (hidden.length > 0) warnOnce(`[content] Sample content not shown on ${where} (replace it with real content, or remove it, in the Studio): ${line}`)
  return { ...page, sections }
}
