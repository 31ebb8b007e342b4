import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { evaluateQuery, readSeedDataset, type SeedDocument } from '../../sanity/seed/dataset'

/**
 * A test stand-in for Sanity's query API (GET or POST /v<apiVersion>/data/query/<dataset>),
 * answering from an NDJSON file with groq-js, re-read on every request so tests can change
 * content. It applies the `drafts` perspective the way the Content Lake does (drafts overlay
 * their published documents), and can be told to fail, to play an outage.
 */
export type SanityStandIn = { url: string; setFailing: (failing: boolean) => void; close: () => Promise<void> }

export const STANDIN_CONTROL_PATH = '/__standin/failing'

export function applyPerspective(documents: SeedDocument[], perspective: string | null): SeedDocument[] {
  const isDraft = (doc: SeedDocument) => doc._id.startsWith('drafts.')
  if (perspective === 'raw') return documents
  if (perspective !== 'drafts') return documents.filter((doc) => !isDraft(doc))
  const drafts = new Map(documents.filter(isDraft).map((doc) => [doc._id.slice('drafts.'.length), doc]))
  const published = documents
    .filter((doc) => !isDraft(doc))
    .map((doc) => {
      const draft = drafts.get(doc._id)
      return draft ? { ...draft, _id: doc._id } : doc
    })
  const ids = new Set(published.map((doc) => doc._id))
  const newDrafts = [...drafts].filter(([id]) => !ids.has(id)).map(([id, doc]) => ({ ...doc, _id: id }))
  return [...published, ...newDrafts]
}

/** The GROQ query and its parameters of a request to the query API: in the address (GET) or the body (POST). */
export function queryRequest(url: URL, postBody?: string): { query: string; params: Record<string, unknown> } {
  let query = url.searchParams.get('query') ?? ''
  const params: Record<string, unknown> = {}
  for (const [key, value] of url.searchParams) if (key.startsWith('$')) params[key.slice(1)] = JSON.parse(value)
  if (postBody !== undefined) {
    const body = JSON.parse(postBody) as { query: string; params?: Record<string, unknown> }
    query = body.query
    Object.assign(params, body.params)
  }
  return { query, params }
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = ''
  for await (const chunk of request) body += chunk
  return body
}

export async function startSanityStandIn({ datasetPath, port = 0 }: { datasetPath: string; port?: number }): Promise<SanityStandIn> {
  let failing = false
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    response.setHeader('content-type', 'application/json')
    if (url.pathname === STANDIN_CONTROL_PATH && request.method === 'POST') {
      failing = (JSON.parse((await readBody(request)) || '{}') as { failing?: boolean }).failing === true
      response.end(JSON.stringify({ failing }))
      return
    }
    if (!/^\/v[\w-]+\/data\/query\/[\w-]+$/.test(url.pathname)) {
      response.statusCode = 404
      response.end(JSON.stringify({ error: { description: 'Not found' } }))
      return
    }
    if (failing) {
      response.statusCode = 503
      response.end(JSON.stringify({ error: { description: 'Service unavailable (stand-in outage)', type: 'serviceUnavailable' } }))
      return
    }
    try {
      const { query, params } = queryRequest(url, request.method === 'POST' ? await readBody(request) : undefined)
      const documents = applyPerspective(await readSeedDataset(datasetPath), url.searchParams.get('perspective'))
      const result = await evaluateQuery(documents, query, params)
      response.end(JSON.stringify({ query, result, ms: 1 }))
    } catch (error) {
      response.statusCode = 400
      response.end(JSON.stringify({ error: { description: (error as Error).message, type: 'queryParseError' } }))
    }
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setFailing: (value) => void (failing = value),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
