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
  server = spawn('next', ['start', '--port', String(E2E.loggedSitePort)], { env: e2eEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
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

test('none of it left a stack trace in the server log', async () => {
  // The tests above ran against this server: its whole output since it started.
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(log, 'the log is read').toContain('Ready')
  expect(log).not.toMatch(/^\s+at /m)
  expect(log).not.toContain('is unsupported')
  expect(log).not.toMatch(/⨯|Error:/)
})
