import { encodeSignatureHeader } from '@sanity/webhook'
import { describe, expect, it } from 'vitest'
import { MAX_SIGNATURE_AGE_MS, tagsForChange, verifyWebhook } from '@/lib/content/webhook'

const secret = 'test-secret'
const now = 1_795_000_000_000
const body = JSON.stringify({ _type: 'landingPage', _id: 'landingPage' })
const sign = (payload: string, at = now, key = secret) => encodeSignatureHeader(payload, at, key)

describe('verifyWebhook', () => {
  it.each([
    ['valid', async () => ({ body, signature: await sign(body), secret }), { ok: true }],
    ['wrong secret', async () => ({ body, signature: await sign(body, now, 'other-secret'), secret }), { ok: false, status: 401, reason: 'invalid signature' }],
    ['tampered body', async () => ({ body: body.replace('landingPage"}', 'aboutPage"}'), signature: await sign(body), secret }), { ok: false, status: 401, reason: 'invalid signature' }],
    ['missing header', async () => ({ body, signature: null, secret }), { ok: false, status: 401, reason: 'missing sanity-webhook-signature header' }],
    ['malformed header', async () => ({ body, signature: 'v1=abc', secret }), { ok: false, status: 401, reason: 'malformed signature' }],
    ['stale timestamp', async () => ({ body, signature: await sign(body, now - MAX_SIGNATURE_AGE_MS - 1), secret }), { ok: false, status: 401, reason: 'stale signature' }],
    ['timestamp from the future', async () => ({ body, signature: await sign(body, now + MAX_SIGNATURE_AGE_MS + 1), secret }), { ok: false, status: 401, reason: 'stale signature' }],
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
})
