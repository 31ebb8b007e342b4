import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { openContentLake, type ContentLake } from './content-lake'

/**
 * The Sanity double's front end for the site's build: an HTTP server answering Sanity's query API
 * (GET or POST /v<apiVersion>/data/query/<dataset>) from a content lake (content-lake.ts: the
 * NDJSON file, re-read on every request so tests can change content, and its perspectives). It
 * can be told to fail, to play an outage. `lake`, to share one with the Studio's front end
 * (studio-routes.ts) in the same process; otherwise its own over `datasetPath`.
 */
export type SanityStandIn = { url: string; setFailing: (failing: boolean) => void; close: () => Promise<void> }

export const STANDIN_CONTROL_PATH = '/__standin/failing'

async function readBody(request: IncomingMessage): Promise<string> {
  let body = ''
  for await (const chunk of request) body += chunk
  return body
}

export async function startSanityStandIn({
  port = 0,
  ...source
}: ({ datasetPath: string } | { lake: ContentLake }) & { port?: number }): Promise<SanityStandIn> {
  const lake = 'lake' in source ? source.lake : openContentLake(source)
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
      response.end(JSON.stringify({ ...(await lake.query(url, request.method === 'POST' ? await readBody(request) : undefined)), ms: 1 }))
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
