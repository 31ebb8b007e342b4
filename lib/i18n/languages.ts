/**
 * The site's languages as addresses see them. English, the base language, keeps the unprefixed
 * addresses it always had; every other language lives under `/<code>/…`. Which other languages
 * exist is content (the `siteLanguages` document in the Studio, read by sanity/content): these
 * rules only say what a code looks like and how a path carries it, so the Studio, the proxy and
 * the pages agree without asking each other. Free of Sanity and Next, so tests run it directly.
 */

/** The base language: its documents have `language: "en"` and its addresses no prefix. */
export const DEFAULT_LANGUAGE = 'en'

/**
 * A language code as addresses carry it: two lowercase letters, optionally a region ("de",
 * "pt-br"). Page slugs of this shape are refused (lib/content/paths.ts), so a first segment that
 * looks like one can only be a language.
 */
export const LANGUAGE_CODE_PATTERN = /^[a-z]{2}(?:-[a-z]{2})?$/

/** A language the site may speak: its code and its name in itself ("Deutsch"), for the switcher. */
export type SiteLanguage = { code: string; title: string }

/** Segments under which the code answers the same whatever the language (the Studio, APIs, share images, metadata files). */
const UNLOCALIZED_SEGMENTS = new Set(['studio', 'api', 'og', 'ingest', 'seed-images', 'sitemap.xml', 'robots.txt', 'icon.svg', '_next'])

/**
 * Separates the language from the variants of an experiment's variant page in the [lang] segment
 * (`en~hero-headline.b`, components/variants/segment.ts): only the proxy rewrites to one.
 */
export const VARIANT_SEGMENT_SEPARATOR = '~'

export const isLanguageCode = (value: string) => LANGUAGE_CODE_PATTERN.test(value)

/** Whether a path belongs to the site's pages (and so to a language), rather than to the Studio, an API or a file. */
export function isLocalizedPath(path: string): boolean {
  return !UNLOCALIZED_SEGMENTS.has(path.split(/[/?#]/)[1] ?? '')
}

/**
 * The path of a page in a language: `/about` in German is `/de/about`, `/#pricing` is
 * `/de#pricing`; English paths stay as they are. A path that already names a language, or that
 * is not one of the site's pages (`/studio`), is left alone, so localizing twice changes nothing.
 */
export function localizePath(path: string, language: string): string {
  if (language === DEFAULT_LANGUAGE || !path.startsWith('/') || path.startsWith('//') || !isLocalizedPath(path)) return path
  const first = path.split(/[/?#]/)[1] ?? ''
  if (isLanguageCode(first)) return path
  const rest = path.slice(1)
  return rest === '' || /^[?#]/.test(rest) ? `/${language}${rest}` : `/${language}/${rest}`
}

/**
 * Which language a request's path is in, and the path within it: `/de/about` is German `/about`
 * when German is one of `prefixed` (the languages besides English); anything else is English.
 */
export function splitLanguage(pathname: string, prefixed: ReadonlySet<string>): { language: string; path: string } {
  const first = pathname.split('/')[1] ?? ''
  if (first === DEFAULT_LANGUAGE || !prefixed.has(first)) return { language: DEFAULT_LANGUAGE, path: pathname }
  const path = pathname.slice(first.length + 1)
  return { language: first, path: path === '' ? '/' : path }
}

/**
 * English has no prefix: the address a path under /en/… is said at (`/en/about` is `/about`, `/en`
 * is `/`), or null for any other path. The proxy redirects it there (308); a redirect's chain is
 * followed through it (sanity/content/addresses.ts), so `/x` → `/en/x` is seen as the loop it is.
 */
export function unprefixedPath(pathname: string): string | null {
  return pathname.split('/')[1] === DEFAULT_LANGUAGE ? pathname.slice(DEFAULT_LANGUAGE.length + 1) || '/' : null
}

/** The code as `<html lang>` and `hreflang` spell it: "pt-br" is "pt-BR". */
export function languageTag(code: string): string {
  const [language, region] = code.split('-')
  return region ? `${language}-${region.toUpperCase()}` : (language ?? code)
}
