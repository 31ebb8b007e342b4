// GROQ shared by the site's queries and the Studio's validation rules. No imports: the site's
// server code reads this without loading the Studio.

/** Where a redirect leads, as a path: null for an external address or a page that is not published. */
export const REDIRECT_DESTINATION_PATH = /* groq */ `select(
  destination.kind == "page" => "/" + destination.page->slug.current,
  destination.kind == "path" => destination.path
)`

/** An image as components/ui/sanity-image.tsx reads it: the reference and crop for the URL builder, the asset's own URL for seed images. */
export const IMAGE_PROJECTION = /* groq */ `{alt, isSample, asset, hotspot, crop, "url": asset->url}`

/** The languages the site speaks, in the Studio's order (the `siteLanguages` document; lib/i18n/languages.ts). */
export const SITE_LANGUAGES = /* groq */ `*[_type == "siteLanguages" && _id == "siteLanguages"][0].languages[]{code, title}`

/**
 * The base-language documents not yet translated into $language (the Studio's "Missing
 * translations"): for a fixed page ($singletons), no document of its type in that language; for the
 * rest, none linked in its translation metadata (@sanity/document-internationalization).
 */
export const MISSING_TRANSLATION = /* groq */ `_type in $types && language == $base && !(_id in path("drafts.**")) && select(
  _type in $singletons => count(*[_type == ^._type && language == $language]) == 0,
  count(*[_type == "translation.metadata" && ^._id in translations[].value._ref && $language in translations[].language]) == 0
)`
