import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { DocumentHook } from '../content/publish-webhook'

/**
 * A test stand-in for Sanity's Webhooks API (GET and POST /v<version>/hooks/projects/<project>,
 * PATCH …/<id>), holding the project's webhooks in memory, as `npm run sanity:webhook` writes them
 * and `npm run launch:check` reads them. Requests without the project's bearer token are refused as
 * Sanity refuses them (401), and each one is recorded, so a test sees what the command sent.
 */
export type HooksStandIn = {
  url: string
  hooks: DocumentHook[]
  requests: Array<{ method: string; path: string; body: unknown }>
  close: () => Promise<void>
}

const HOOKS_PATH = /^\/v[\w-]+\/hooks\/projects\/([\w-]+)(?:\/([\w-]+))?$/

async function readJson(request: IncomingMessage): Promise<unknown> {
  let body = ''
  for await (const chunk of request) body += chunk
  return body ? JSON.parse(body) : undefined
}

function answer(response: ServerResponse, status: number, body: unknown) {
  response.statusCode = status
  response.setHeader('content-type', 'application/json')
  response.end(JSON.stringify(body))
}

export async function startHooksStandIn({ projectId, token, port = 0 }: { projectId: string; token: string; port?: number }): Promise<HooksStandIn> {
  const standIn: Omit<HooksStandIn, 'url' | 'close'> = { hooks: [], requests: [] }
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const body = await readJson(request)
    standIn.requests.push({ method: request.method ?? 'GET', path: url.pathname, body })
    const match = HOOKS_PATH.exec(url.pathname)
    if (!match || match[1] !== projectId) return answer(response, 404, { error: 'Not Found', message: 'Project not found' })
    if (request.headers.authorization !== `Bearer ${token}`)
      return answer(response, 401, { error: 'Unauthorized', message: 'Unauthorized - Session not found' })
    const id = match[2]
    if (!id && request.method === 'GET') return answer(response, 200, standIn.hooks)
    if (!id && request.method === 'POST') {
      const hook = { ...(body as DocumentHook), id: randomUUID().slice(0, 16), isDisabled: false, isDisabledByUser: false }
      standIn.hooks.push(hook)
      return answer(response, 200, hook)
    }
    const index = standIn.hooks.findIndex((hook) => hook.id === id)
    if (index === -1) return answer(response, 404, { error: 'Not Found', message: 'Webhook not found' })
    if (request.method === 'GET') return answer(response, 200, standIn.hooks[index])
    if (request.method === 'PATCH') {
      standIn.hooks[index] = { ...standIn.hooks[index]!, ...(body as Partial<DocumentHook>), id: id! }
      return answer(response, 200, standIn.hooks[index])
    }
    return answer(response, 405, { error: 'Method Not Allowed' })
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return Object.assign(standIn, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  })
}
