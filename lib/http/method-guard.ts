import { subscribe } from 'node:diagnostics_channel'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { refusedMethod } from './methods'
import { keepVaryTokens } from './vary'

/**
 * Answers 405 with `Allow` to a method the address does not take, in the Node server itself, before
 * Next sees the request. Next cannot: TRACE and CONNECT never reach proxy.ts (Next's own `new
 * Request` throws on TRACE, a 500 with a stack trace in the log for every request, a cheap way to
 * fill it; Node drops a CONNECT with no answer), and an API route's 405 names no methods.
 */
type Listener = (request: IncomingMessage, response: ServerResponse) => void
type HttpServer = Pick<Server, 'listeners' | 'listenerCount' | 'removeAllListeners' | 'on'>

const guarded = new WeakSet<object>()

function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://x').pathname
  } catch {
    return '/'
  }
}

/** Puts the check in front of the server's request listeners (Next's), and answers CONNECT; `Vary` adds up on every response it passes on. */
export function guardServer(server: HttpServer): void {
  if (guarded.has(server) || server.listenerCount('request') === 0) return
  guarded.add(server)
  const listeners = server.listeners('request') as Listener[]
  server.removeAllListeners('request')
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const allowed = refusedMethod(request.method ?? '', pathOf(request.url))
    if (!allowed) {
      // What proxy.ts says a page varies on reaches the visitor beside Next's own tokens (lib/http/vary.ts).
      keepVaryTokens(response)
      for (const listener of listeners) listener.call(server, request, response)
      return
    }
    request.resume()
    response.writeHead(405, { allow: allowed.join(', '), 'content-length': '0', 'cache-control': 'no-store' }).end()
  })
  // CONNECT's target is a host, not a path: no address of ours takes it.
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const allowed = refusedMethod('CONNECT', pathOf(request.url)) ?? []
    socket.on('error', () => {})
    socket.end(`HTTP/1.1 405 Method Not Allowed\r\nAllow: ${allowed.join(', ')}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`)
  })
}

/**
 * Guards every HTTP server of this process from its first connection or request on: Next's
 * (`next start`, `next dev`) is made before instrumentation runs, so it is found through Node's
 * diagnostics channels, which hand over the server.
 */
export function guardEveryServer(): void {
  subscribe('net.server.socket', (message) => {
    const server = (message as { socket?: { server?: unknown } }).socket?.server
    if (server && typeof (server as HttpServer).listenerCount === 'function') guardServer(server as HttpServer)
  })
  subscribe('http.server.request.start', (message) => guardServer((message as { server: HttpServer }).server))
}
