import type { ValidationContext } from 'sanity'
import { DEFAULT_LANGUAGE, localizePath } from '../../../lib/i18n/languages'

/** The API version the Studio's own validation queries use. */
export const VALIDATION_API_VERSION = '2025-02-19'

/**
 * The client a validation rule queries the dataset with: the Studio's in the Studio; over the
 * local dataset (groq-js) in `npm run content:publish` and the tests (sanity/validate-documents.ts).
 */
export function documentClient(context: ValidationContext) {
  return context.getClient({ apiVersion: VALIDATION_API_VERSION })
}

export const publishedId = (id: string | undefined) => (id ?? '').replace(/^drafts\./, '')

/**
 * A slug rule: the path rules first (`problem`), then no other document of `type` in the same
 * language may hold the slug (its own draft and published copy are the same document). Each
 * language has its own addresses: /privacy and /de/datenschutz, but /de/privacy is German's to give.
 */
export async function uniqueSlug(
  context: ValidationContext,
  {
    type,
    slug,
    problem,
    pathOf,
  }: { type: string; slug: string | undefined; problem: (slug: string | undefined) => string | null; pathOf: (slug: string) => string },
): Promise<true | string> {
  const wrong = problem(slug)
  if (wrong) return wrong
  const id = publishedId(context.document?._id)
  const language = (context.document?.language as string | undefined) ?? DEFAULT_LANGUAGE
  const taken = await documentClient(context).fetch<number>(
    'count(*[_type == $type && slug.current == $slug && coalesce(language, $base) == $language && !(_id in [$id, "drafts." + $id])])',
    { type, slug, id, language, base: DEFAULT_LANGUAGE },
  )
  return taken > 0 ? `Another ${type} already has the address ${localizePath(pathOf(slug!), language)}` : true
}
