import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { evaluate, parse } from 'groq-js'

/**
 * The embedded content source: the same GROQ the site sends to Sanity, evaluated by
 * groq-js over the seed dataset (the NDJSON file `sanity dataset import` accepts).
 */

export type SeedDocument = { _id: string; _type: string; [field: string]: unknown }

export function parseNdjson(text: string, source = 'dataset'): SeedDocument[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => {
      let doc: unknown
      try {
        doc = JSON.parse(line)
      } catch (error) {
        throw new Error(`${source}:${number} is not valid JSON: ${(error as Error).message}`)
      }
      return asSeedDocument(doc, `${source}:${number}`)
    })
}

/** `value` when it is a document (an object with a string `_id` and `_type`); an error naming `where` otherwise. */
export function asSeedDocument(value: unknown, where: string): SeedDocument {
  if (!value || typeof value !== 'object' || Array.isArray(value) || typeof (value as SeedDocument)._id !== 'string' || typeof (value as SeedDocument)._type !== 'string') {
    throw new Error(`${where} is not a document: every document needs an _id and a _type`)
  }
  return value as SeedDocument
}

export async function readSeedDataset(file: string): Promise<SeedDocument[]> {
  // The seed is read at run time only on a developer machine; keep it out of file tracing.
  const absolute = path.resolve(/*turbopackIgnore: true*/ process.cwd(), file)
  return parseNdjson(await readFile(absolute, 'utf8'), absolute)
}

/**
 * Which edit of the seed file this is (its size and modification time): part of every cache key
 * for seed content, so a cached answer never outlives an edit of the seed. Next keeps that cache
 * in the build directory across builds; without this, rebuilding after editing the seed would
 * prerender the old words.
 */
export async function seedVersion(file: string): Promise<string> {
  const { size, mtimeMs } = await stat(path.resolve(/*turbopackIgnore: true*/ process.cwd(), file))
  return `${size}:${mtimeMs}`
}

export async function evaluateQuery(documents: SeedDocument[], query: string, params: Record<string, unknown> = {}): Promise<unknown> {
  const result = await evaluate(parse(query), { dataset: documents, params })
  return result.get()
}

