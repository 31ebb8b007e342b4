/** Pure parts of the local PostgREST double: keys, JWT checks and PostgREST's error mapping. */
import { describe, expect, it } from 'vitest'
import { pgErrorResponse, statusForSqlState } from '@/tools/supabase-local/errors'
import { signJwt, verifyJwt } from '@/tools/supabase-local/jwt'
import { LOCAL_ANON_KEY, LOCAL_JWT_SECRET, LOCAL_SERVICE_ROLE_KEY } from '@/tools/supabase-local/keys'
import { loopbackAddress } from '@/tools/supabase-local/loopback-fetch'
import { requestHeadersSetting } from '@/tools/supabase-local/postgrest'
import { gatewayHeaderLines } from '@/tools/supabase-local/server'

describe('local demo keys', () => {
  it.each([
    ['anon', LOCAL_ANON_KEY],
    ['service_role', LOCAL_SERVICE_ROLE_KEY],
  ])('%s is the HS256 JWT `supabase start` prints', async (role, key) => {
    expect(await signJwt({ iss: 'supabase-demo', role, exp: 1983812996 }, LOCAL_JWT_SECRET)).toBe(key)
    expect(await verifyJwt(key, LOCAL_JWT_SECRET)).toEqual({ ok: true, claims: { iss: 'supabase-demo', role, exp: 1983812996 } })
  })
})

describe('verifyJwt', () => {
  const [header, payload] = LOCAL_ANON_KEY.split('.') as [string, string]
  const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`

  it.each([
    ['a wrong secret', () => signJwt({ role: 'anon' }, 'x'.repeat(40)), 'signature'],
    ['a tampered payload', () => `${header}.${Buffer.from('{"role":"service_role"}').toString('base64url')}.${LOCAL_ANON_KEY.split('.')[2]}`, 'signature'],
    ['alg none', () => none, 'algorithm'],
    ['two parts', () => `${header}.${payload}`, 'malformed'],
    ['garbage', () => 'a.b.c', 'malformed'],
    ['an expired token', () => signJwt({ role: 'anon', exp: 1000 }, LOCAL_JWT_SECRET), 'expired'],
    ['a non-numeric exp', () => signJwt({ role: 'anon', exp: 'never' }, LOCAL_JWT_SECRET), 'expired'],
  ])('refuses %s', async (_, token, reason) => {
    expect(await verifyJwt(await token(), LOCAL_JWT_SECRET)).toMatchObject({ ok: false, reason })
  })
})

describe("PostgREST's SQLSTATE -> HTTP status table", () => {
  it.each([
    ['23505', false, 409],
    ['23503', false, 409],
    ['23514', false, 400],
    ['23502', false, 400],
    ['22001', false, 400],
    ['22P02', false, 400],
    ['42703', false, 400],
    ['42501', false, 401],
    ['42501', true, 403],
    ['42P01', false, 404],
    ['42883', false, 404],
    ['P0001', false, 400],
    ['P0002', false, 500],
    ['25006', false, 405],
    ['08006', false, 503],
    ['53300', false, 503],
    ['53400', false, 500],
    ['57014', false, 500],
    ['XX000', false, 500],
    ['PT402', false, 402],
    ['PTabc', false, 500],
  ])('%s (authenticated: %s) -> %i', (code, authed, status) => {
    expect(statusForSqlState(code, 'message', authed)).toBe(status)
  })
})

describe('pgErrorResponse', () => {
  it('shapes a database error like PostgREST', () => {
    expect(pgErrorResponse({ code: '42501', message: 'permission denied for table waitlist' }, false)).toEqual({
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer' },
      body: { code: '42501', details: null, hint: null, message: 'permission denied for table waitlist' },
    })
  })

  it('honours RAISE SQLSTATE PGRST with JSON message and detail', () => {
    expect(
      pgErrorResponse(
        {
          code: 'PGRST',
          message: '{"code":"WL429","message":"Too many sign-ups","hint":"Wait a minute"}',
          detail: '{"status":429,"headers":{"Retry-After":"60"}}',
        },
        false,
      ),
    ).toEqual({
      status: 429,
      headers: { 'Retry-After': '60' },
      body: { code: 'WL429', details: null, hint: 'Wait a minute', message: 'Too many sign-ups' },
    })
  })

  it.each([
    ['a message that is not JSON', { code: 'PGRST', message: 'slow down', detail: '{"status":429,"headers":{}}' }],
    ['a missing detail', { code: 'PGRST', message: '{"code":"X","message":"y"}' }],
    ['a detail without headers', { code: 'PGRST', message: '{"code":"X","message":"y"}', detail: '{"status":429}' }],
  ])('answers PGRST121 (500) for %s', (_, error) => {
    expect(pgErrorResponse(error, false)).toMatchObject({ status: 500, body: { code: 'PGRST121' } })
  })
})

describe('request.headers, as PostgREST builds it', () => {
  it('keeps every header but Cookie, and the last of repeated lines', () => {
    expect(
      JSON.parse(
        requestHeadersSetting([
          ['x-test', 'first'],
          ['cookie', 'session=secret'],
          ['authorization', 'Bearer t'],
          ['x-test', 'second'],
          ['x-forwarded-for', '203.0.113.1, 127.0.0.1'],
        ]),
      ),
    ).toEqual({ 'x-test': 'second', authorization: 'Bearer t', 'x-forwarded-for': '203.0.113.1, 127.0.0.1' })
  })
})

describe('the edge the double plays', () => {
  it('drops every address header the client wrote and sets its own from the socket', () => {
    const raw = [
      'Host',
      'x',
      'X-Forwarded-For',
      '203.0.113.1',
      'x-forwarded-for',
      '203.0.113.2',
      'X-Real-IP',
      '198.51.100.1',
      'CF-Connecting-IP',
      '192.0.2.1',
      'Forwarded',
      'for=192.0.2.2',
      'True-Client-IP',
      '192.0.2.3',
      'X-Client-IP',
      '192.0.2.4',
      'apikey',
      'k',
    ]
    expect(gatewayHeaderLines(raw, '127.0.0.9')).toEqual([
      ['host', 'x'],
      ['apikey', 'k'],
      ['cf-connecting-ip', '127.0.0.9'],
      ['x-forwarded-for', '127.0.0.9'],
      ['x-real-ip', '127.0.0.9'],
    ])
  })

  it('names simulated clients from 127.1.0.1 upwards, never .0 or .255', () => {
    expect([0, 1, 253, 254, 254 * 256].map(loopbackAddress)).toEqual(['127.1.0.1', '127.1.0.2', '127.1.0.254', '127.1.1.1', '127.2.0.1'])
  })
})

describe('the waitlist rate limit raise', () => {
  it('becomes HTTP 429 with Retry-After and the PostgREST body (json_build_object output, spaces and all)', () => {
    expect(
      pgErrorResponse(
        {
          code: 'PGRST',
          message:
            '{"code" : "WL429", "message" : "Too many sign-ups from this network. Please wait a few minutes and try again.", "details" : "At most 5 sign-ups per 10 minutes from one network.", "hint" : null}',
          detail: '{"status" : 429, "headers" : {"Retry-After" : "412"}}',
        },
        false,
      ),
    ).toEqual({
      status: 429,
      headers: { 'Retry-After': '412' },
      body: {
        code: 'WL429',
        details: 'At most 5 sign-ups per 10 minutes from one network.',
        hint: null,
        message: 'Too many sign-ups from this network. Please wait a few minutes and try again.',
      },
    })
  })
})
