/**
 * A request body read up to a fixed number of bytes, never more: a route that anyone can call
 * must not hold an attacker's 300 MB in memory before it decides to refuse it. A body announced
 * (Content-Length) or found to be larger is refused at once and the rest is not read.
 */
export type CappedBody = { ok: true; bytes: Uint8Array<ArrayBuffer> } | { ok: false }

export async function readBodyCapped(request: Request, maxBytes: number): Promise<CappedBody> {
  const declared = request.headers.get('content-length')
  if (declared !== null && !(Number(declared) <= maxBytes)) return { ok: false }
  if (!request.body) return { ok: true, bytes: new Uint8Array() }
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      return { ok: false }
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return { ok: true, bytes }
}
