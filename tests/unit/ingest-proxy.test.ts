import { describe, expect, it, vi } from 'vitest'
import { FORWARDED_REQUEST_HEADERS, MAX_INGEST_BODY_BYTES, proxyToPostHog, upstreamUrl } from '@/components/analytics/ingest-proxy'

// The /ingest proxy forwards to PostHog only what PostHog needs: never a cookie of ours (the
// draft-mode cookie of a previewing marketer among them), an authorization, or who the visitor is
// behind us.
const hosts = { ingest: 'https://ingest.posthog.test', assets: 'https://assets.posthog.test' }

function upstream() {
  const calls: { url: string; init: RequestInit }[] = []
  const fetchImpl = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} })
    return new Response('{"status":1}', {
      status: 200,
      headers: { 'content-type': 'application/json', 'set-cookie': 'ph=1; Path=/', 'x-upstream-secret': 'x' },
    })
  }) as unknown as typeof fetch
  return { calls, fetchImpl }
}

describe('the /ingest proxy', () => {
  it('forwards the path (its trailing slash kept), the query and the body, and only the content headers', async () => {
    const { calls, fetchImpl } = upstream()
    const request = new Request('https://heardly.example/ingest/e/?ip=0&ver=1', {
      method: 'POST',
      body: '{"batch":[]}',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Mozilla/5.0',
        cookie: '__prerender_bypass=draft-secret; sanity-preview-perspective=drafts; consent=1',
        authorization: 'Bearer site-secret',
        'x-forwarded-for': '198.51.100.7',
        'x-real-ip': '198.51.100.7',
        referer: 'https://heardly.example/waitlist/confirm',
        origin: 'https://heardly.example',
      },
    })
    const response = await proxyToPostHog(request, fetchImpl, hosts)
    expect(response.status).toBe(200)
    expect(calls).toHaveLength(1)
    expect(calls[0]!.url).toBe('https://ingest.posthog.test/e/?ip=0&ver=1')
    const sent = new Headers(calls[0]!.init.headers)
    expect([...sent.keys()].sort()).toEqual(['content-type', 'user-agent'])
    expect(FORWARDED_REQUEST_HEADERS).not.toContain('cookie')
    expect(new TextDecoder().decode(calls[0]!.init.body as Uint8Array)).toBe('{"batch":[]}')
    // Nothing of PostHog's comes back as a cookie of ours.
    expect(response.headers.get('set-cookie')).toBeNull()
    expect(response.headers.get('x-upstream-secret')).toBeNull()
    expect(response.headers.get('content-type')).toBe('application/json')
  })

  it('sends /static and /array to the assets host, the rest to the API', () => {
    expect(upstreamUrl('/static/array.js', '', hosts)?.toString()).toBe('https://assets.posthog.test/static/array.js')
    expect(upstreamUrl('/array/phc_x/config.js', '', hosts)?.toString()).toBe('https://assets.posthog.test/array/phc_x/config.js')
    expect(upstreamUrl('/flags/', '?v=2', hosts)?.toString()).toBe('https://ingest.posthog.test/flags/?v=2')
  })

  it.each(['//evil.example/x', '/../admin', '/e/%2e%2e/x', '/e/..%2Fx', '/%2F%2Fevil.example', '/e\\\\x', '/e/%E0%A4%A', '/e/%00/', '/e%0A/', '/e/%7F'])(
    'refuses a path that would leave PostHog’s host or path, or holds a control character: %s',
    (path) => {
      expect(upstreamUrl(path, '', hosts)).toBeNull()
    },
  )

  it('refuses a body over the cap without forwarding it, and methods PostHog does not take', async () => {
    const { calls, fetchImpl } = upstream()
    const big = new Request('https://heardly.example/ingest/e/', { method: 'POST', body: new Uint8Array(MAX_INGEST_BODY_BYTES + 1) })
    expect((await proxyToPostHog(big, fetchImpl, hosts)).status).toBe(413)
    expect((await proxyToPostHog(new Request('https://heardly.example/ingest/e/', { method: 'DELETE' }), fetchImpl, hosts)).status).toBe(404)
    expect((await proxyToPostHog(new Request('https://heardly.example/other/e/'), fetchImpl, hosts)).status).toBe(404)
    expect(calls).toEqual([])
  })

  it('answers 502 when PostHog cannot be reached', async () => {
    const failing = (async () => {
      throw new TypeError('fetch failed')
    }) as unknown as typeof fetch
    expect((await proxyToPostHog(new Request('https://heardly.example/ingest/e/', { method: 'POST', body: '{}' }), failing, hosts)).status).toBe(502)
  })
})
