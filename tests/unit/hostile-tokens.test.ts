import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { redeemInvitation, type Redeem } from '@/components/waitlist/invitations'
import { confirmWaitlistLink, deleteMe, exportMyData, fetchInvitationToken, fetchLinkState, myUpdates } from '@/components/waitlist/link'
import { mintToken } from '@/components/waitlist/outbox/token'
import { isLinkToken } from '@/components/waitlist/token-shape'
import { isUnsubscribeToken, UPDATES_TOKEN_PREFIX } from '@/components/waitlist/unsubscribe-path'
import { unsubscribe, type Remove } from '@/components/waitlist/unsubscribe-route'

// Tokens that can never be ours get a 4xx that says "invalid", asked of nobody: the database
// refuses some of their bytes (Postgres text holds no NUL; its JSON parser no lone surrogate), and
// that error used to come back as 503 "unavailable", which the app and mail programs retry forever.

const SECRET = 'the-apps-redeem-secret-0123456789'
const GOOD = 'A'.repeat(43)

/** What an attacker sends, as JSON string values. */
const HOSTILE: [string, string][] = [
  ['NUL', `${'A'.repeat(21)}\u0000${'A'.repeat(21)}`],
  ['a lone surrogate', `${'A'.repeat(42)}\ud800`],
  ['U+202E (right-to-left override)', `\u202e${'A'.repeat(42)}`],
  ['a control character', `${'A'.repeat(42)}\u0007`],
  ['a 10 kB token', 'A'.repeat(10_000)],
  ['one character short', 'A'.repeat(42)],
  ['one character long', 'A'.repeat(44)],
  ['base64 padding', `${'A'.repeat(42)}=`],
  ['empty', ''],
]

/** The database as it answers those: an error (mapped to 'unavailable') for NUL and lone surrogates. */
const databaseLike = (token: string) => (/\u0000|[\ud800-\udfff]/.test(token) ? ('unavailable' as const) : null)

beforeEach(() => vi.stubEnv('INVITATION_REDEEM_SECRET', SECRET))
afterEach(() => {
  vi.unstubAllEnvs()
  vi.unstubAllGlobals()
})

describe('the token shape', () => {
  it('is what the dispatcher mints, plain and for update e-mails', () => {
    for (let i = 0; i < 200; i++) {
      expect(isLinkToken(mintToken().token)).toBe(true)
      expect(isUnsubscribeToken(mintToken(UPDATES_TOKEN_PREFIX).token)).toBe(true)
    }
  })

  it.each(HOSTILE)('refuses %s', (_, token) => {
    expect(isLinkToken(token)).toBe(false)
    expect(isUnsubscribeToken(token)).toBe(false)
    expect(isUnsubscribeToken(`${UPDATES_TOKEN_PREFIX}${token}`)).toBe(false)
  })
})

describe('POST /api/invitations/redeem with a token that can never redeem', () => {
  const request = (body: string) =>
    new Request('https://heardly.example/api/invitations/redeem', {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
    })

  it.each(HOSTILE.filter(([, token]) => JSON.stringify({ token }).length <= 4096))(
    '%s gets 400 invitation_invalid, and the database is not asked',
    async (_, token) => {
      const redeem = vi.fn<Redeem>(async (value) => databaseLike(value) ?? { error: 'unknown' })
      const response = await redeemInvitation(request(JSON.stringify({ token })), redeem)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ error: 'invitation_invalid' })
      expect(redeem).not.toHaveBeenCalled()
    },
  )

  it('a 10 kB token is over the body cap: 413, never 503', async () => {
    const redeem = vi.fn<Redeem>(async () => 'unavailable')
    expect((await redeemInvitation(request(JSON.stringify({ token: 'A'.repeat(10_000) })), redeem)).status).toBe(413)
    expect(redeem).not.toHaveBeenCalled()
  })

  it.each(['{"token": 42}', '{"token": ["x"]}', '{"token": null}', '{"token": {"a": 1}}', '[]', '"token"'])('%s gets 400 bad_request', async (body) => {
    const redeem = vi.fn<Redeem>(async () => 'unavailable')
    const response = await redeemInvitation(request(body), redeem)
    expect(response.status).toBe(400)
    expect((await response.json()).error).toBe('bad_request')
    expect(redeem).not.toHaveBeenCalled()
  })

  it('a well-formed token still reaches the database', async () => {
    const redeem = vi.fn<Redeem>(async () => ({ error: 'unknown' }))
    expect((await redeemInvitation(request(JSON.stringify({ token: GOOD })), redeem)).status).toBe(404)
    expect(redeem).toHaveBeenCalledWith(GOOD)
  })
})

describe('POST /api/unsubscribe with a token that can never be anyone’s', () => {
  const post = (query: string, remove: Remove) =>
    unsubscribe(new Request(`https://heardly.example/api/unsubscribe?${query}`, { method: 'POST', body: 'List-Unsubscribe=One-Click' }), remove)
  const cases: [string, string][] = [
    // A URL cannot carry a lone surrogate (encodeURIComponent throws): its UTF-8 bytes stand in.
    ...HOSTILE.filter(([what]) => what !== 'a lone surrogate').map(([what, token]): [string, string] => [what, `token=${encodeURIComponent(token)}`]),
    ['a lone surrogate, as its bytes', `token=${'A'.repeat(42)}%ED%A0%80`],
    ['NUL after the updates prefix', `token=updates.${'A'.repeat(21)}%00${'A'.repeat(21)}`],
    ['no token', ''],
  ]

  it.each(cases)('%s gets 400 with reason "invalid", and the database is not asked', async (_, query) => {
    const remove = vi.fn<Remove>(async (token) => databaseLike(token) ?? false)
    const response = await post(query, remove)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ ok: false, reason: 'invalid' })
    expect(remove).not.toHaveBeenCalled()
  })

  it('a well-formed token, plain or an update e-mail’s, still reaches the database', async () => {
    const remove = vi.fn<Remove>(async () => false)
    for (const token of [GOOD, `${UPDATES_TOKEN_PREFIX}${GOOD}`]) expect((await post(`token=${token}`, remove)).status).toBe(200)
    expect(remove).toHaveBeenCalledTimes(2)
  })
})

describe('the link page’s own-data calls with a token that can never be anyone’s', () => {
  const backend = { url: 'http://127.0.0.1:1', anonKey: 'anon' }
  // PostgREST's answer to NUL in a text argument (22P05 is class 22: 400).
  const postgrest400 = () =>
    Response.json(
      { code: '22P05', details: '\\u0000 cannot be converted to text.', hint: null, message: 'unsupported Unicode escape sequence' },
      { status: 400 },
    )

  it.each(HOSTILE)('%s opens nothing (never "unreachable"), and nothing is sent', async (_, token) => {
    const fetchMock = vi.fn(async () => postgrest400())
    vi.stubGlobal('fetch', fetchMock)
    expect(await confirmWaitlistLink(backend, token, fetchMock)).toBe('invalid')
    expect(await fetchLinkState(backend, token)).toBeNull()
    expect(await fetchInvitationToken(backend, token)).toBeNull()
    expect(await exportMyData(backend, token)).toBeNull()
    expect(await myUpdates(backend, token, null)).toBeNull()
    expect(await deleteMe(backend, token)).toBe('gone')
    expect(fetchMock).not.toHaveBeenCalled()
  })
})
