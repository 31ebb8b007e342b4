/**
 * Many clients on one machine, for tests and the load check: a fetch() whose requests leave from
 * a chosen loopback address. Linux routes all of 127.0.0.0/8 to the loopback interface, so each
 * address is a distinct TCP peer to the local double, which (like the platform's edge) counts the
 * socket's address and ignores every address header a client writes. Give it to supabase-js as
 * `global: { fetch: loopbackFetch('127.1.0.7') }`. Node only.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http'

/** The index-th simulated client: 127.1.0.1, 127.1.0.2, ... (254 per /24, never .0 or .255). */
export function loopbackAddress(index: number): string {
  if (!Number.isInteger(index) || index < 0 || index >= 254 * 256 * 254) throw new Error(`No loopback address for client ${index}`)
  const last = (index % 254) + 1
  const block = Math.floor(index / 254)
  return `127.${1 + Math.floor(block / 256)}.${block % 256}.${last}`
}

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  const record: Record<string, string> = {}
  new Headers(headers).forEach((value, name) => {
    record[name] = value
  })
  return record
}

export function loopbackFetch(localAddress: string): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : null
    const url = new URL(request ? request.url : String(input))
    if (url.protocol !== 'http:') throw new TypeError(`loopbackFetch speaks plain HTTP only: ${url.href}`)
    const method = init?.method ?? request?.method ?? 'GET'
    const headers = headerRecord(init?.headers ?? request?.headers)
    const rawBody = init?.body ?? (request ? await request.arrayBuffer() : undefined)
    const body =
      rawBody === undefined || rawBody === null
        ? undefined
        : typeof rawBody === 'string'
          ? Buffer.from(rawBody)
          : rawBody instanceof ArrayBuffer
            ? Buffer.from(rawBody)
            : ArrayBuffer.isView(rawBody)
              ? Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength)
              : Buffer.from(await new Response(rawBody as BodyInit).arrayBuffer())
    const signal = init?.signal ?? request?.signal ?? undefined
    signal?.throwIfAborted()

    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = httpRequest(url, { method, headers, localAddress, signal }, resolve)
      outgoing.on('error', reject)
      outgoing.end(body)
    })
    const chunks: Buffer[] = []
    for await (const chunk of response) chunks.push(chunk as Buffer)
    const status = response.statusCode ?? 0
    const responseHeaders = new Headers()
    for (const [name, value] of Object.entries(response.headers)) {
      if (Array.isArray(value)) for (const item of value) responseHeaders.append(name, item)
      else if (value !== undefined) responseHeaders.set(name, value)
    }
    const nullBody = status === 204 || status === 205 || status === 304 || method === 'HEAD'
    return new Response(nullBody ? null : Buffer.concat(chunks), { status, statusText: response.statusMessage, headers: responseHeaders })
  }
}
