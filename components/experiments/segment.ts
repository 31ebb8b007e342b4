import { VARIANT_SEGMENT_SEPARATOR } from '@/lib/i18n/languages'
import { isExperimentKey, isVariantKey, MAX_ASSIGNMENTS, type Assignments } from '@/sanity/experiments/assignments'

/**
 * A variant page's internal address: the [lang] segment carries the language and the variants
 * the page draws, e.g. `en~hero-headline.b` (`/about` for a participant is `/en~hero-headline.b/about`).
 * Only the proxy rewrites to it; asked for directly it is no page (the proxy answers 404), so a
 * variant is never an address of its own for search engines. Each combination is a static page of
 * its own, rendered on its first request and refreshed by the same cache tags as the page.
 */

export function variantSegment(language: string, shown: Assignments): string {
  const pairs = Object.entries(shown)
    .filter(([key, variant]) => isExperimentKey(key) && isVariantKey(variant))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, variant]) => `${key}.${variant}`)
  return pairs.length ? [language, ...pairs].join(VARIANT_SEGMENT_SEPARATOR) : language
}

/** The variants a segment names, or null when it is not one `variantSegment` writes (then the page is a 404). */
export function parseVariantSegment(segment: string): { language: string; shown: Assignments } | null {
  const [language = '', ...pairs] = decodeURIComponent(segment).split(VARIANT_SEGMENT_SEPARATOR)
  if (pairs.length > MAX_ASSIGNMENTS) return null
  const shown: Record<string, string> = {}
  let previous = ''
  for (const pair of pairs) {
    const [key, variant, extra] = pair.split('.')
    // Sorted, each once: one address per combination, so no two cache entries hold the same page.
    if (extra !== undefined || !isExperimentKey(key) || !isVariantKey(variant) || key <= previous) return null
    shown[key] = variant
    previous = key
  }
  return { language, shown }
}
