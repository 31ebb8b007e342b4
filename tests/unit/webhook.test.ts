import { encodeSignatureHeader } from '@sanity/webhook'
import { describe, expect, it } from 'vitest'
import { MAX_SIGNATURE_AGE_MS, precheckWebhook, tagsForChange, verifyWebhook } from '@/lib/content/webhook'
import { readBodyCapped } from '@/lib/http/body'

const secret = 'test-secret'
const now = 1_795_000_000_000
const body = JSON.stringify({ _type: 'landingPage', _id: 'landingPage' })
const sign = (payload: string, at = now, key = secret) => encodeSignatureHeader(payload, at, key)

describe('verifyWebhook', () => {
  it.each([
    ['valid', async () => ({ body, signature: await sign(body), secret }), { ok: true }],
    ['wrong secret', async () => ({ body, signature: await sign(body, now, 'other-secret'), secret }), { ok: false, status: 401, reason: 'invalid signature' }],
    [
      'tampered body',
      async () => ({ body: body.replace('landingPage"}', 'aboutPage"}'), signature: await sign(body), secret }),
      { ok: false, status: 401, reason: 'invalid signature' },
    ],
    ['missing header', async () => ({ body, signature: null, secret }), { ok: false, status: 401, reason: 'missing sanity-webhook-signature header' }],
    ['malformed header', async () => ({ body, signature: 'v1=abc', secret }), { ok: false, status: 401, reason: 'malformed signature' }],
    [
      'stale timestamp',
      async () => ({ body, signature: await sign(body, now - MAX_SIGNATURE_AGE_MS - 1), secret }),
      { ok: false, status: 401, reason: 'stale signature' },
    ],
    [
      'timestamp from the future',
      async () => ({ body, signature: await sign(body, now + MAX_SIGNATURE_AGE_MS + 1), secret }),
      { ok: false, status: 401, reason: 'stale signature' },
    ],
    ['no secret configured', async () => ({ body, signature: await sign(body), secret: undefined }), { ok: false, status: 401 }],
    ['empty secret configured', async () => ({ body, signature: await sign(body), secret: '' }), { ok: false, status: 401 }],
    ['signed but not a change', async () => ({ body: '{"hello":1}', signature: await sign('{"hello":1}'), secret }), { ok: false, status: 400 }],
  ] as const)('%s', async (_name, input, expected) => {
    expect(await verifyWebhook({ ...(await input()), now })).toMatchObject(expected)
  })

  it('returns the change it verified', async () => {
    expect(await verifyWebhook({ body, signature: await sign(body), secret, now })).toEqual({ ok: true, change: { _type: 'landingPage', _id: 'landingPage' } })
  })
})

describe('tagsForChange', () => {
  it('names the document type and the document, drafts folded into the published id', () => {
    expect(tagsForChange({ _type: 'pricingTier', _id: 'drafts.pricingTier-pro' })).toEqual(['pricingTier', 'doc:pricingTier-pro'])
  })

  it('a page or a redirect revalidates its type tag, under which every page render, redirect lookup, menu and the sitemap are cached', () => {
    expect(tagsForChange({ _type: 'page', _id: 'page-privacy' })).toEqual(['page', 'doc:page-privacy'])
    expect(tagsForChange({ _type: 'redirect', _id: 'redirect-old' })).toEqual(['redirect', 'doc:redirect-old'])
  })

  it('a set of translations linked or unlinked revalidates the pages, posts and categories whose alternates it names', () => {
    expect(tagsForChange({ _type: 'translation.metadata', _id: 'translations-page-privacy' })).toEqual([
      'page',
      'post',
      'category',
      'doc:translations-page-privacy',
    ])
  })
})

describe('before the body is read', () => {
  it('refuses a missing, malformed or stale signature, or a missing secret, from the header alone', async () => {
    expect(precheckWebhook({ signature: null, secret, now })).toMatchObject({ ok: false, status: 401 })
    expect(precheckWebhook({ signature: 't=abc,v1=x', secret, now })).toMatchObject({ ok: false, status: 401 })
    expect(precheckWebhook({ signature: await sign(body, now - MAX_SIGNATURE_AGE_MS - 1), secret, now })).toMatchObject({ ok: false, status: 401 })
    expect(precheckWebhook({ signature: await sign(body), secret: undefined, now })).toMatchObject({ ok: false, status: 401 })
    // A fresh, well-formed header goes on to the body (its signature is checked there).
    expect(precheckWebhook({ signature: await sign('anything'), secret, now })).toBeNull()
  })
})

describe('a body read up to a cap', () => {
  /** A request whose body streams `total` bytes in 64 kB chunks, counting what was pulled from it. */
  function streamed(total: number, headers: Record<string, string> = {}) {
    let pulled = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled >= total) return controller.close()
        const chunk = new Uint8Array(Math.min(65_536, total - pulled))
        pulled += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const request = new Request('https://heardly.example/api/revalidate', { method: 'POST', body, headers, duplex: 'half' } as RequestInit)
    return { request, pulled: () => pulled }
  }

  it('returns a body within the cap', async () => {
    const read = await readBodyCapped(new Request('https://x.example', { method: 'POST', body: 'hello' }), 5)
    expect(read.ok && new TextDecoder().decode(read.bytes)).toBe('hello')
  })

  it('refuses a larger one after reading little more than the cap, however much is sent', async () => {
    const { request, pulled } = streamed(300 * 1024 * 1024)
    expect(await readBodyCapped(request, 16 * 1024)).toEqual({ ok: false })
    expect(pulled()).toBeLessThan(256 * 1024)
  })

  it('refuses a body announced larger without reading any of it', async () => {
    const { request, pulled } = streamed(1024 * 1024, { 'content-length': String(1024 * 1024) })
    // A stream may fill its queue once on its own; nothing more is pulled by the reader.
    await new Promise((resolve) => setTimeout(resolve, 10))
    const before = pulled()
    expect(await readBodyCapped(request, 16 * 1024)).toEqual({ ok: false })
    expect(pulled()).toBe(before)
    expect(await readBodyCapped(new Request('https://x.example', { method: 'POST', body: 'x', headers: { 'content-length': 'nonsense' } }), 16)).toEqual({
      ok: false,
    })
  })
})
