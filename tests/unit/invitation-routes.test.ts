import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { redeemInvitation, type Redeem } from '@/components/waitlist/invitations'
import { unsubscribe, unsubscribePage, type Remove } from '@/components/waitlist/unsubscribe-route'

// The two routes the outside world calls about invitations and leaving: the product's app
// redeeming (with its secret), and a mail program's one-click unsubscribe. The database calls are
// stand-ins here (their SQL is tested in tests/integration/waitlist-invitations.test.ts).

const SECRET = 'the-apps-redeem-secret-0123456789'
const TOKEN = 'A'.repeat(43)

beforeEach(() => {
  vi.stubEnv('INVITATION_REDEEM_SECRET', SECRET)
})
afterEach(() => {
  vi.unstubAllEnvs()
})

const redeemRequest = (body: BodyInit | null, authorization: string | null = `Bearer ${SECRET}`) =>
  new Request('https://heardly.example/api/invitations/redeem', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
  })

describe('POST /api/invitations/redeem', () => {
  const person = {
    name: 'Ada',
    email: 'ada@example.com',
    company: 'Engines',
    founding_member: true,
    invited_at: '2026-11-20T10:00:00Z',
    joined_at: '2026-11-24T10:00:00Z',
    language: 'de',
  }

  it('answers who the invitation is for, once, in the contract’s shape', async () => {
    const redeem = vi.fn<Redeem>(async () => person)
    const response = await redeemInvitation(redeemRequest(JSON.stringify({ token: TOKEN })), redeem)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      company: 'Engines',
      foundingMember: true,
      invitedAt: '2026-11-20T10:00:00Z',
      joinedAt: '2026-11-24T10:00:00Z',
      language: 'de',
    })
    expect(redeem).toHaveBeenCalledWith(TOKEN)
    expect(response.headers.get('cache-control')).toBe('no-store')
  })

  it.each([
    ['unknown', 404],
    ['used', 410],
    ['expired', 410],
  ] as const)('a token that is %s gets %i and a JSON error that names nobody', async (error, status) => {
    const response = await redeemInvitation(redeemRequest(JSON.stringify({ token: TOKEN })), async () => ({ error }))
    expect(response.status).toBe(status)
    expect(await response.json()).toEqual({ error: `invitation_${error}` })
  })

  it.each([
    ['no Authorization header', null],
    ['a wrong secret', 'Bearer not-the-secret-at-all-0123456789'],
    ['the secret with one character more', `Bearer ${SECRET}x`],
    ['the secret not as a bearer token', SECRET],
    ['another scheme', `Basic ${SECRET}`],
  ])('%s gets 401, and the token is never looked at', async (_, authorization) => {
    const redeem = vi.fn<Redeem>(async () => person)
    const response = await redeemInvitation(redeemRequest(JSON.stringify({ token: TOKEN }), authorization), redeem)
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ error: 'unauthorized' })
    expect(redeem).not.toHaveBeenCalled()
  })

  it('refuses everything when no secret is configured', async () => {
    vi.stubEnv('INVITATION_REDEEM_SECRET', '')
    const redeem = vi.fn<Redeem>(async () => person)
    expect((await redeemInvitation(redeemRequest(JSON.stringify({ token: TOKEN }), 'Bearer '), redeem)).status).toBe(401)
    expect(redeem).not.toHaveBeenCalled()
  })

  it('answers 400 to a body without a token, 413 to a large one, 503 when the database is out of reach', async () => {
    const redeem = vi.fn<Redeem>(async () => person)
    for (const body of ['not json', '{}', '{"token": 42}', 'null']) expect((await redeemInvitation(redeemRequest(body), redeem)).status, body).toBe(400)
    expect((await redeemInvitation(redeemRequest(JSON.stringify({ token: TOKEN, padding: 'x'.repeat(5000) })), redeem)).status).toBe(413)
    expect(redeem).not.toHaveBeenCalled()
    expect((await redeemInvitation(redeemRequest(JSON.stringify({ token: TOKEN })), async () => 'unavailable')).status).toBe(503)
  })
})

describe('/api/unsubscribe (RFC 8058 one-click)', () => {
  const url = `https://heardly.example/api/unsubscribe?token=${TOKEN}`

  it('a GET removes nobody: it leads to the page that asks for a press, the token in the fragment', async () => {
    const response = unsubscribePage(new Request(url))
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe(`/waitlist/unsubscribe#token=${TOKEN}`)
  })

  it('a POST (a mail program’s one click, or the page’s button) takes the token’s person off, with the same answer for any token', async () => {
    const remove = vi.fn<Remove>(async (token) => token === TOKEN)
    const oneClick = await unsubscribe(
      new Request(url, { method: 'POST', body: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      remove,
    )
    expect(oneClick.status).toBe(200)
    expect(remove).toHaveBeenCalledWith(TOKEN)
    const other = await unsubscribe(new Request(`https://heardly.example/api/unsubscribe?token=${'B'.repeat(43)}`, { method: 'POST' }), remove)
    expect(other.status).toBe(200)
    expect(await other.json()).toEqual(await (await unsubscribe(new Request(url, { method: 'POST' }), remove)).json())
  })

  it('refuses a POST without a token, a large body, and says 503 when the database is out of reach', async () => {
    const remove = vi.fn<Remove>(async () => true)
    expect((await unsubscribe(new Request('https://heardly.example/api/unsubscribe', { method: 'POST' }), remove)).status).toBe(400)
    expect((await unsubscribe(new Request(url, { method: 'POST', body: 'x'.repeat(2048) }), remove)).status).toBe(413)
    expect(remove).not.toHaveBeenCalled()
    expect((await unsubscribe(new Request(url, { method: 'POST' }), async () => 'unavailable')).status).toBe(503)
  })
})
