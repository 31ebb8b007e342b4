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
