import { asSeedDocument, parseNdjson, type SeedDocument } from '../../sanity/seed/dataset'

/**
 * The documents in a file given to `content:publish`: NDJSON (one document a line, as `sanity
 * dataset export` writes it), or JSON as a person writes it, one document or a list, on one line
 * or on many: the guides print their examples pretty, and each must publish as printed
 * (tests/integration/docs-examples-publish.test.ts).
 */
export function parseDocumentsFile(text: string, source: string): SeedDocument[] {
  const trimmed = text.trim()
  if (trimmed === '') return []
  let whole: unknown
  try {
    whole = JSON.parse(trimmed)
  } catch (error) {
    // Several values, one a line: NDJSON, whose reader names the line at fault. A pretty document
    // with a mistake in it starts with a line that is no value on its own: the whole text is at fault.
    if (!isJson(trimmed.slice(0, trimmed.indexOf('\n')))) throw new Error(`${source} is not valid JSON: ${(error as Error).message}`)
    return parseNdjson(trimmed, source)
  }
  return Array.isArray(whole) ? whole.map((value, index) => asSeedDocument(value, `${source}, item ${index + 1}`)) : [asSeedDocument(whole, source)]
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
