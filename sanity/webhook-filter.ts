import { schemaTypes } from './schemaTypes'

/**
 * Which documents' publishes the site must hear: Sanity's publish webhook (app/api/revalidate/route.ts)
 * is sent only for documents its filter names, so a type missing there is a publish the site never
 * sees until the safety net's timer. The list is read from the schema, so a document type added to
 * sanity/schemaTypes/ is in the filter of `npm run sanity:webhook` (tools/content/publish-webhook.ts),
 * of `npm run launch:check` and of the founders' guide without anyone touching a list.
 */

/**
 * Document types a Studio plugin adds beside ours: @sanity/document-internationalization's links
 * between translations (sanity.config.ts), which the pages read for their language switcher. The
 * plugin exports no name for it; tests/unit/publish-webhook.test.ts holds this against what
 * `npm run typegen` read from the whole Studio config (sanity/types.generated.ts).
 */
export const PLUGIN_DOCUMENT_TYPES: readonly string[] = ['translation.metadata']

type SchemaType = { name: string; type: string }

/** Every document type the Studio publishes, in the schema's order. */
export function publishedDocumentTypes(types: readonly SchemaType[] = schemaTypes): string[] {
  return [...types.filter((type) => type.type === 'document').map((type) => type.name), ...PLUGIN_DOCUMENT_TYPES]
}

/** The webhook's GROQ filter, written the way the founders' guide prints it. */
export function publishWebhookFilter(types: readonly string[] = publishedDocumentTypes()): string {
  return `_type in [${types.map((type) => JSON.stringify(type)).join(', ')}]`
}

/**
 * The types a webhook's filter leaves out, and those it names that the schema has not. A filter not
 * of the `_type in [...]` shape this site writes counts as naming none: what it lets through cannot
 * be told, so `npm run sanity:webhook` should replace it.
 */
export function filterDifference(
  filter: string | null | undefined,
  types: readonly string[] = publishedDocumentTypes(),
): { missing: string[]; extra: string[] } {
  const listed = /^\s*_type\s+in\s+(\[[^\]]*\])\s*$/.exec(filter ?? '')?.[1]
  let named: string[] = []
  try {
    named = listed ? (JSON.parse(listed) as string[]) : []
  } catch {
    named = []
  }
  return { missing: types.filter((type) => !named.includes(type)), extra: named.filter((type) => !types.includes(type)) }
}
