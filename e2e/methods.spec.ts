import { spawn, type ChildProcess } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { expect, test } from '@playwright/test'
import { LOCAL_INVITATION_REDEEM_SECRET } from '../tools/local/local-env'
import { E2E, e2eEnv } from '../tools/test/e2e-env'
import { waitForUrl } from '../tools/local/run'

// What a running server answers to methods and inputs that can never succeed, and what it logs:
// a 4xx that says so, and no stack trace (each one a line in the log an attacker could pour in).
// A second `next start` of the suite's build, on its own port, so this spec reads its whole output.

const site = `http://127.0.0.1:${E2E.loggedSitePort}`
let server: ChildProcess
let log = ''

// The last test reads the log the others left.
test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  // PROXY_TRACE: proxy.ts marks each answer it made (x-proxy-ran), so a skipped request shows.
  server = spawn('next', ['start', '--port', String(E2E.loggedSitePort)], { env: { ...e2eEnv(), PROXY_TRACE: '1' }, stdio: ['ignore', 'pipe', 'pipe'] })
  server.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()))
  server.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()))
  await waitForUrl(`${site}/about`)
})

test.afterAll(() => {
  server.kill('SIGTERM')
})

/** A raw request (fetch cannot send TRACE or CONNECT): status and `Allow`. */
function send(method: string, target: string, body?: string): Promise<{ status: number; allow: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: `Bearer ${LOCAL_INVITATION_REDEEM_SECRET}`, 'content-type': 'application/json' }
    const req = httpRequest({ host: '127.0.0.1', port: E2E.loggedSitePort, method, path: target, headers })
    const answer = (response: import('node:http').IncomingMessage) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode!, allow: response.headers.allow, body: text }))
    }
    req.on('response', answer)
    req.on('connect', (response, socket) => {
      socket.destroy()
      resolve({ status: response.statusCode!, allow: response.headers.allow, body: '' })
    })
    req.on('error', reject)
    req.end(body)
  })
}

test('TRACE, CONNECT and other methods an address does not take get 405 with Allow, pages and API routes alike', async () => {
  const cases: [string, string, string][] = [
    ['TRACE', '/about', 'GET, HEAD'],
    ['TRACE', '/', 'GET, HEAD'],
    ['TRACE', '/api/invitations/redeem', 'OPTIONS, POST'],
    ['TRACE', '/api/unsubscribe', 'GET, HEAD, OPTIONS, POST'],
    ['TRACE', '/ingest/e/', 'GET, HEAD, OPTIONS, POST'],
    ['CONNECT', 'heardly.example:443', 'GET, HEAD'],
    ['PUT', '/about', 'GET, HEAD'],
    ['PROPFIND', '/waitlist', 'GET, HEAD'],
    ['DELETE', '/api/unsubscribe', 'GET, HEAD, OPTIONS, POST'],
    ['PATCH', '/api/revalidate', 'OPTIONS, POST'],
  ]
  for (const [method, target, allow] of cases) {
    const answer = await send(method, target)
    expect({ method, target, status: answer.status, allow: answer.allow }).toEqual({ method, target, status: 405, allow })
  }
  // Node's own parser knows no TRACK: 400 before any code runs, and nothing logged.
  expect((await send('TRACK', '/about')).status).toBe(400)
  // Still answered as before.
  expect((await send('GET', '/about')).status).toBe(200)
  expect((await send('OPTIONS', '/api/invitations/redeem')).allow).toBe('OPTIONS, POST')
})

test('a token that can never be ours gets a 4xx saying "invalid", never 503, from each route', async () => {
  const nul = `${'A'.repeat(21)}\\u0000${'A'.repeat(21)}`
  const surrogate = `${'A'.repeat(42)}\\ud800`
  for (const json of [nul, surrogate, `\\u202e${'A'.repeat(42)}`, 'short'].map((token) => `{"token": "${token}"}`)) {
    const answer = await send('POST', '/api/invitations/redeem', json)
    expect({ json, status: answer.status, body: answer.body }).toEqual({ json, status: 400, body: '{"error":"invitation_invalid"}' })
  }
  // not seed copy: request bodies and URL bytes an attacker sends.
  for (const json of ['{"token": 42}', '{"token": ["x"]}', '{"token": null}'])
    expect((await send('POST', '/api/invitations/redeem', json)).status, json).toBe(400)
  expect((await send('POST', '/api/invitations/redeem', JSON.stringify({ token: 'A'.repeat(10_000) }))).status).toBe(413)
  // not seed copy: a token's bytes as a URL carries them.
  for (const token of [
    `${'A'.repeat(21)}%00${'A'.repeat(21)}`,
    `${'A'.repeat(42)}%ED%A0%80`,
    `%E2%80%AE${'A'.repeat(42)}`,
    'A'.repeat(10_000),
    `updates.${'A'.repeat(42)}%00`,
  ]) {
    const answer = await send('POST', `/api/unsubscribe?token=${token}`, 'List-Unsubscribe=One-Click')
    expect({ token: token.slice(0, 60), status: answer.status, body: answer.body }).toEqual({
      token: token.slice(0, 60),
      status: 400,
      body: '{"ok":false,"reason":"invalid"}',
    })
  }
  // A control character in a language code or an /ingest path: 404, nothing forwarded.
  expect((await send('GET', '/api/language/d%00e')).status).toBe(404)
  expect((await send('GET', '/ingest/e/%00/')).status).toBe(404)
})

/** A raw request with exactly these headers: status and the headers that tell a skip. */
function ask(method: string, target: string, headers: Record<string, string>) {
  return new Promise<{ status: number; allow?: string; vary: string; proxied: boolean; location?: string; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: E2E.loggedSitePort, method, path: target, headers })
    req.on('response', (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          allow: response.headers.allow,
          vary: String(response.headers.vary ?? ''),
          proxied: response.headers['x-proxy-ran'] === '1',
          location: response.headers.location,
          body,
        }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

/** What Chromium sends on a first visit typed into the address bar. */
const NAVIGATION = {
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'none',
  'sec-fetch-user': '?1',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
}
const varyTokens = (vary: string) => vary.split(',').map((token) => token.trim().toLowerCase())

test("a browser's first navigation to a fixed page is served without the proxy, and says what a shared cache must key on", async ({ page }) => {
  // The real browser first: its own headers, no cookie.
  const response = await page.goto(`${site}/`)
  expect(response!.status()).toBe(200)
  const headers = await response!.allHeaders()
  expect(headers['x-proxy-ran'], 'the proxy did not run').toBeUndefined()
  expect(varyTokens(headers.vary ?? '')).toEqual(expect.arrayContaining(['accept', 'cookie']))
  await expect(page.locator('main h1')).toBeVisible()
  for (const path of ['/', '/about', '/waitlist', '/blog', '/changelog', '/search', '/waitlist/confirm', '/waitlist/unsubscribe']) {
    const skipped = await ask('GET', path, NAVIGATION)
    expect({ path, status: skipped.status, proxied: skipped.proxied }).toEqual({ path, status: 200, proxied: false })
    expect(varyTokens(skipped.vary), path).toEqual(expect.arrayContaining(['accept', 'cookie']))
    // The same page through the proxy (no Sec-Fetch-Dest: curl, a crawler): the same words.
    const proxied = await ask('GET', path, { accept: NAVIGATION.accept })
    expect({ path, status: proxied.status, proxied: proxied.proxied }).toEqual({ path, status: 200, proxied: true })
    expect(skipped.body.match(/<title>[^<]*<\/title>/)?.[0], path).toBe(proxied.body.match(/<title>[^<]*<\/title>/)?.[0])
  }
})

test('anything the proxy decides brings it back, for fixed pages and every other address', async () => {
  const cases: [string, string, Record<string, string>, number][] = [
    ['consent granted: an experiment may take the visitor', '/', { ...NAVIGATION, cookie: 'consent=granted' }, 200],
    ['a draft-mode cookie', '/about', { ...NAVIGATION, cookie: '__prerender_bypass=forged' }, 200],
    ['Markdown preferred: the twin', '/about', { ...NAVIGATION, accept: 'text/markdown' }, 200],
    ['a body', '/waitlist', { ...NAVIGATION, 'content-type': 'text/plain' }, 200],
    ['a page marketers made', '/privacy', NAVIGATION, 200],
    ['an address nobody published: the one static 404', '/no-such-page-4d1f', NAVIGATION, 404],
    ['another language', '/de/about', NAVIGATION, 200],
    ['English said with its prefix: redirected', '/en/about', NAVIGATION, 308],
    ['a trailing slash', '/about/', NAVIGATION, 200],
  ]
  for (const [why, path, headers, status] of cases) {
    const answer = await ask('GET', path, headers)
    expect({ why, status: answer.status, proxied: answer.proxied }).toEqual({ why, status, proxied: true })
  }
  expect((await ask('GET', '/about', { ...NAVIGATION, accept: 'text/markdown' })).body).toMatch(/^# /m)
  expect((await ask('GET', '/en/about', NAVIGATION)).location).toBe('/about')
})

test('a forged Sec-Fetch-Dest on another method skips the proxy, and the Node server still refuses it', async () => {
  // Next's matcher cannot see the method: on a host without lib/http/method-guard.ts in front of
  // Next, this would reach the page (docs/engineers.md, "Requests the proxy skips").
  // not seed copy: HTTP methods.
  for (const [method, path] of [
    ['PUT', '/about'],
    ['DELETE', '/'],
    ['PROPFIND', '/waitlist'],
    ['POST', '/about'],
  ] as const) {
    const answer = await ask(method, path, NAVIGATION)
    expect({ method, path, status: answer.status, allow: answer.allow, proxied: answer.proxied }).toEqual({
      method,
      path,
      status: 405,
      allow: 'GET, HEAD',
      proxied: false,
    })
  }
})

test('none of it left a stack trace in the server log', async () => {
  // The tests above ran against this server: its whole output since it started.
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(log, 'the log is read').toContain('Ready')
  expect(log).not.toMatch(/^\s+at /m)
  expect(log).not.toContain('is unsupported')
  expect(log).not.toMatch(/⨯|Error:/)
})
