/**
 * Many clients on one machine, for tests and the load check: a fetch() whose requests leave from
 * a chosen loopback address. Linux routes all of 127.0.0.0/8 to the loopback interface, so each
 * address is a distinct TCP peer to the local double, which (like the platform's edge) counts the
 * socket's address and ignores every address header a client writes. Give it to supabase-js as
 * `global: { fetch: loopbackFetch('127.1.0.7') }`. Node only: undici's fetch through an Agent
 * whose sockets are bound to that address.
 */
import { Agent, fetch as undiciFetch } from 'undici'

/** The index-th simulated client: 127.1.0.1, 127.1.0.2, ... (254 per /24, never .0 or .255). */
export function loopbackAddress(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= 254 * 256 * 254) throw new Error(`No loopback address for client ${index}`)
  const last = (index % 254) + 1
  const block = Math.floor(index / 254)
  return `127.${1 + Math.floor(block / 256)}.${block % 256}.${last}`
}

export function loopbackFetch(localAddress: string): typeof fetch {
  const dispatcher = new Agent({ localAddress })
  const loopback = async (input: RequestInfo | URL, init?: RequestInit) => {
    // The platform's Request is another undici's: read what it carries rather than hand it over.
    const request = input instanceof Request ? input : null
    const url = new URL(request ? request.url : String(input))
    if (url.protocol !== 'http:') throw new TypeError(`loopbackFetch speaks plain HTTP only: ${url.href}`)
    const body = init?.body ?? (request?.body ? await request.arrayBuffer() : undefined)
    type Init = NonNullable<Parameters<typeof undiciFetch>[1]>
    return undiciFetch(url, {
      method: init?.method ?? request?.method,
      headers: (init?.headers ?? request?.headers) as Init['headers'],
      body: body as Init['body'],
      signal: init?.signal ?? request?.signal,
      dispatcher,
    })
  }
  // undici's Response is the platform's, one version apart.
  return loopback as unknown as typeof fetch
}
