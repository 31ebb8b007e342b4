import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { guardServer } from '@/lib/http/method-guard'
import { mergeVary, varyTokens } from '@/lib/http/vary'

// A page's `Vary` as it leaves our Node server: proxy.ts's tokens (copied onto the response by
// Next's router) survive the app-page handler's own `res.setHeader('Vary', …)` and the compression's
// `Accept-Encoding`, compared as whole tokens (`Accept` is not in `Accept-Encoding`). The same
// order of calls as Next 16.4 makes them; the built site is checked by e2e/faults-shared-cache.spec.ts.

const NEXT_VARY = 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch'

describe('Vary tokens', () => {
  it('reads a value, or several header lines, as its tokens', () => {
    expect(varyTokens('Accept-Encoding')).toEqual(['Accept-Encoding'])
    expect(varyTokens('rsc,  Accept , Cookie')).toEqual(['rsc', 'Accept', 'Cookie'])
    expect(varyTokens(['Accept', 'Cookie, Origin'])).toEqual(['Accept', 'Cookie', 'Origin'])
    expect(varyTokens(undefined)).toEqual([])
  })

  it('merges two values, each token once whatever its case, and * alone stays *', () => {
    expect(mergeVary('Accept, Cookie', NEXT_VARY)).toBe(`Accept, Cookie, ${NEXT_VARY}`)
    expect(mergeVary('accept', 'Accept, Accept-Encoding')).toBe('accept, Accept-Encoding')
    expect(mergeVary(undefined, 'Cookie')).toBe('Cookie')
    expect(mergeVary('Cookie', '*')).toBe('*')
  })
})

describe('a server guarded by lib/http/method-guard.ts', () => {
  let server: Server | undefined
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())))

  async function varyOf(proxyVary: string | undefined): Promise<string[]> {
    server = createServer((_request, response) => {
      // Next's router copies the proxy's headers, then the app-page handler sets its list, then compression appends.
      if (proxyVary) response.setHeader('Vary', proxyVary)
      response.setHeader('Vary', NEXT_VARY)
      response.setHeader('Vary', mergeVary(response.getHeader('Vary'), 'Accept-Encoding'))
      response.end('page')
    })
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    guardServer(server)
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/about`)
    return varyTokens(response.headers.get('vary')).sort()
  }

  it('sends the proxy’s tokens beside Next’s own', async () => {
    expect(await varyOf('Accept, Cookie')).toEqual(['Accept', 'Accept-Encoding', 'Cookie', ...varyTokens(NEXT_VARY)].sort())
  })

  it('sends Next’s own alone where the proxy said nothing', async () => {
    expect(await varyOf(undefined)).toEqual(['Accept-Encoding', ...varyTokens(NEXT_VARY)].sort())
  })
})
