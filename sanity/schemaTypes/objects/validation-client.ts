import type { ValidationContext } from 'sanity'

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
 * A slug rule: the path rules first (`problem`), then no other document of `type` may hold the
 * slug (its own draft and published copy are the same document).
 */
export async function uniqueSlug(
  context: ValidationContext,
  { type, slug, problem, pathOf }: { type: string; slug: string | undefined; problem: (slug: string | undefined) => string | null; pathOf: (slug: string) => string },
): Promise<true | string> {
  const wrong = problem(slug)
  if (wrong) return wrong
  const id = publishedId(context.document?._id)
  const taken = await documentClient(context).fetch<number>('count(*[_type == $type && slug.current == $slug && !(_id in [$id, "drafts." + $id])])', { type, slug, id })
  return taken > 0 ? `Another ${type} already has the address ${pathOf(slug!)}` : true
}
