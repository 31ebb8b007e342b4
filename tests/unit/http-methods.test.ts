import { readdirSync, readFileSync } from 'node:fs'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { NextRequest } from 'next/server'
import { afterEach, describe, expect, it } from 'vitest'
import { guardEveryServer, guardServer } from '@/lib/http/method-guard'
import { allowedMethods, refusedMethod } from '@/lib/http/methods'
import { proxy } from '@/proxy'

// A method an address does not take gets 405 and `Allow`, for pages and API routes alike, and
// TRACE and CONNECT never reach Next (which answers TRACE with a 500 and a stack trace in the log,
// and drops CONNECT unanswered). The running server: e2e/methods.spec.ts.

/** Every route file under app/, with the URL path it answers (dynamic segments filled in). */
function routeFiles(dir = 'app'): { file: string; url: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return routeFiles(full)
    if (!/^route\.tsx?$/.test(entry.name)) return []
    const url = `/${path
      .relative('app', dir)
      .split(path.sep)
      .filter((segment) => !/^\(.*\)$/.test(segment))
      .map((segment) => (segment.startsWith('[') ? 'x' : segment))
      .join('/')}`
    return [{ file: full, url }]
  })
}

describe('which methods each address takes', () => {
  it.each(routeFiles())('$url ($file) allows what its file exports', ({ file, url }) => {
    const exported = [...readFileSync(file, 'utf8').matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g)].map(
      (match) => match[1]!,
    )
    // Next adds HEAD to a GET, and answers OPTIONS for API routes itself.
    const expected = [...exported, ...(exported.includes('GET') ? ['HEAD'] : []), ...(/^\/(?:api|ingest)\//.test(url) ? ['OPTIONS'] : [])]
    expect([...allowedMethods(url)].sort()).toEqual(expected.sort())
  })

  it.each([
    ['TRACE', '/about', 'GET, HEAD'],
    ['TRACK', '/', 'GET, HEAD'],
    ['CONNECT', '/about', 'GET, HEAD'],
    ['PUT', '/about', 'GET, HEAD'],
    ['PROPFIND', '/de/about', 'GET, HEAD'],
    ['POST', '/waitlist', 'GET, HEAD'],
    ['OPTIONS', '/about', 'GET, HEAD'],
    ['TRACE', '/api/invitations/redeem', 'OPTIONS, POST'],
    ['GET', '/api/invitations/redeem', 'OPTIONS, POST'],
    ['DELETE', '/api/unsubscribe', 'GET, HEAD, OPTIONS, POST'],
    ['GET', '/api/mail-events/resend', 'OPTIONS, POST'],
    ['PUT', '/ingest/e/', 'GET, HEAD, OPTIONS, POST'],
    ['TRACE', '/_next/static/chunks/x.js', 'GET, HEAD'],
  ])('%s %s is refused, naming %s', (method, pathname, allow) => {
    expect(refusedMethod(method, pathname)?.join(', ')).toBe(allow)
  })

  it.each([
    ['GET', '/about'],
    ['HEAD', '/'],
    ['POST', '/api/invitations/redeem'],
    ['OPTIONS', '/api/invitations/redeem'],
    ['POST', '/ingest/e/'],
    ['GET', '/api/language/de'],
    // Next's own addresses keep Next's rules (its development server posts to some).
    ['POST', '/__nextjs_original-stack-frames'],
  ])('%s %s goes on', (method, pathname) => {
    expect(refusedMethod(method, pathname)).toBeNull()
  })
})

describe('proxy.ts, on any host', () => {
  it.each(['PUT', 'DELETE', 'PATCH', 'POST', 'PROPFIND', 'OPTIONS'])('a page answers %s with 405 and Allow: GET, HEAD', async (method) => {
    const response = await proxy(new NextRequest('https://heardly.example/about', { method }))
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
  })
})

describe('the Node server guard', () => {
  const servers: Server[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
  })

  /** A server whose own listener (Next's, in the site) answers 200 and records what reached it. */
  async function serve(): Promise<{ port: number; server: Server; reached: string[] }> {
    const reached: string[] = []
    const server = createServer((request, response) => {
      reached.push(`${request.method} ${request.url}`)
      response.end('ok')
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    return { port: (server.address() as AddressInfo).port, server, reached }
  }

  /** A raw request (fetch cannot send TRACE or CONNECT): status line and headers. */
  function send(port: number, method: string, target: string): Promise<{ status: number; allow: string | undefined }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path: target })
      req.on('response', (response) => {
        response.resume()
        resolve({ status: response.statusCode!, allow: response.headers.allow })
      })
      // CONNECT's answer arrives as a 'connect' event, whatever its status.
      req.on('connect', (response, socket) => {
        socket.destroy()
        resolve({ status: response.statusCode!, allow: response.headers.allow })
      })
      req.on('error', reject)
      req.end()
    })
  }

  it('answers TRACE, CONNECT and other refused methods with 405 and Allow; the rest reaches the server', async () => {
    const { port, server, reached } = await serve()
    guardServer(server)
    expect(await send(port, 'TRACE', '/about')).toEqual({ status: 405, allow: 'GET, HEAD' })
    expect(await send(port, 'TRACE', '/api/invitations/redeem')).toEqual({ status: 405, allow: 'OPTIONS, POST' })
    expect(await send(port, 'PUT', '/api/unsubscribe?token=x')).toEqual({ status: 405, allow: 'GET, HEAD, OPTIONS, POST' })
    expect(await send(port, 'CONNECT', 'heardly.example:443')).toEqual({ status: 405, allow: 'GET, HEAD' })
    expect((await send(port, 'GET', '/about')).status).toBe(200)
    expect((await send(port, 'POST', '/api/invitations/redeem')).status).toBe(200)
    expect(reached).toEqual(['GET /about', 'POST /api/invitations/redeem'])
  })

  it('finds a server made before it was installed (as Next makes its own before instrumentation runs)', async () => {
    const { port, reached } = await serve()
    guardEveryServer()
    expect(await send(port, 'TRACE', '/')).toEqual({ status: 405, allow: 'GET, HEAD' })
    const fresh = await serve()
    expect(await send(fresh.port, 'CONNECT', 'heardly.example:443')).toEqual({ status: 405, allow: 'GET, HEAD' })
    expect(reached).toEqual([])
  })
})
