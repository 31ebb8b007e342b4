import 'server-only'
import { readBodyCapped } from '@/lib/http/body'
import { ANALYTICS_PROXY_PATH as PREFIX } from './proxy-path'

/**
 * PostHog's EU cloud behind our own origin (`/ingest`): ad blockers and the Content-Security-Policy
 * see one origin, and the browser never talks to a third party directly. Only what PostHog needs
 * leaves: the path, the query, the body and a few content headers. No cookie (a previewing
 * marketer's draft-mode cookie among them), no authorization, no forwarded addresses, no referrer.
 * Bodies are capped, and answers carry no cookie back.
 */

export const POSTHOG_HOSTS = { ingest: 'https://eu.i.posthog.com', assets: 'https://eu-assets.i.posthog.com' } as const

/** The request headers PostHog reads: what the body is, and which client sent it (for its own parsing). */
export const FORWARDED_REQUEST_HEADERS = ['content-type', 'content-encoding', 'accept', 'accept-encoding', 'user-agent'] as const
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'content-encoding', 'cache-control', 'etag', 'last-modified', 'access-control-allow-origin'] as const

/** posthog-js sends batches of a few kB, and at most ~1 MB with session replay. */
export const MAX_INGEST_BODY_BYTES = 1024 * 1024

/**
 * Where a path under /ingest goes, kept exactly as the client wrote it (PostHog's API paths end in
 * a slash): PostHog's assets for /static and /array, its API for the rest. Null for anything that
 * would leave that host or climb out of its path, and for a control character (NUL, a line break),
 * which no PostHog path has: answered 404 here rather than forwarded.
 */
export function upstreamUrl(path: string, search: string, hosts: { ingest: string; assets: string } = POSTHOG_HOSTS): URL | null {
  if (!path.startsWith('/') || path.startsWith('//')) return null
  const segments = path.slice(1).split('/')
  let decoded: string[]
  try {
    decoded = segments.map(decodeURIComponent)
  } catch {
    return null
  }
  if (decoded.some((segment) => segment === '.' || segment === '..' || /[\\/\u0000-\u001f\u007f]/.test(segment))) return null
  const host = decoded[0] === 'static' || decoded[0] === 'array' ? hosts.assets : hosts.ingest
  const url = new URL(path, host)
  if (url.origin !== new URL(host).origin || url.pathname !== path) return null
  url.search = search
  return url
}

export async function proxyToPostHog(
  request: Request,
  fetchImpl: typeof fetch = fetch,
  hosts: { ingest: string; assets: string } = POSTHOG_HOSTS,
): Promise<Response> {
  const source = new URL(request.url)
  const target = source.pathname.startsWith(`${PREFIX}/`) ? upstreamUrl(source.pathname.slice(PREFIX.length), source.search, hosts) : null
  if (!target || (request.method !== 'GET' && request.method !== 'POST')) return new Response(null, { status: 404 })
  const headers = new Headers()
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  let body: Uint8Array<ArrayBuffer> | undefined
  if (request.method === 'POST') {
    const read = await readBodyCapped(request, MAX_INGEST_BODY_BYTES)
    if (!read.ok) return new Response(null, { status: 413 })
    body = read.bytes
  }
  let upstream: Response
  try {
    upstream = await fetchImpl(target, { method: request.method, headers, body, redirect: 'manual', cache: 'no-store', signal: AbortSignal.timeout(10_000) })
  } catch {
    return new Response(null, { status: 502 })
  }
  const answer = new Headers()
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name)
    if (value !== null) answer.set(name, value)
  }
  return new Response(upstream.body, { status: upstream.status, headers: answer })
}
