import { describe, expect, it } from 'vitest'
import { joinWaitlist, type WaitlistClient, type WaitlistInsertResponse } from '@/components/waitlist/join'
import type { WaitlistRow } from '@/components/waitlist/rules'

/** A client whose insert answers (or throws) what the case says, recording what was sent. */
function fakeClient(answer: WaitlistInsertResponse | (() => never)) {
  const calls: { table: string; row: WaitlistRow }[] = []
  const client: WaitlistClient = {
    from(table) {
      return {
        insert(row) {
          calls.push({ table, row })
          if (typeof answer === 'function') return { then: () => answer() } as unknown as PromiseLike<WaitlistInsertResponse>
          return Promise.resolve(answer)
        },
      }
    },
  }
  return { client, calls }
}

const input = { name: '  Ada  ', email: ' ada@example.com ', company: undefined }
const pgError = (code: string, message: string) => ({ code, message, details: null, hint: null })

describe('joinWaitlist', () => {
  it('inserts the normalized row into waitlist, without asking for it back', async () => {
    const { client, calls } = fakeClient({ error: null, status: 201 })
    expect(await joinWaitlist(client, input)).toEqual({ status: 'saved' })
    expect(calls).toEqual([{ table: 'waitlist', row: { name: 'Ada', email: 'ada@example.com', project: '' } }])
  })

  it('sends the updates box only when it is ticked: the database keeps it off otherwise', async () => {
    const { client, calls } = fakeClient({ error: null, status: 201 })
    await joinWaitlist(client, input, {}, { updates: true })
    await joinWaitlist(client, input, {}, { updates: false })
    expect(calls.map((call) => call.row)).toEqual([
      { name: 'Ada', email: 'ada@example.com', project: '', updates: true },
      { name: 'Ada', email: 'ada@example.com', project: '' },
    ])
  })

  it.each([
    ['code 23505', pgError('23505', 'unique violation'), 409],
    ["message 'duplicate key'", pgError('XX000', 'duplicate key value violates unique constraint "waitlist_email_unique"'), 400],
    ["message 'already on the waitlist'", pgError('P0001', 'This address is already on the waitlist'), 400],
  ])('reports a duplicate by %s', async (_, error, status) => {
    const { client } = fakeClient({ error, status })
    expect(await joinWaitlist(client, input)).toEqual({ status: 'duplicate', message: 'This email is already on the waitlist!' })
  })

  it('carries any other backend error with its message, code and HTTP status', async () => {
    const { client } = fakeClient({
      error: pgError('23514', 'new row for relation "waitlist" violates check constraint "waitlist_name_length"'),
      status: 400,
    })
    expect(await joinWaitlist(client, input)).toEqual({
      status: 'failed',
      message: 'new row for relation "waitlist" violates check constraint "waitlist_name_length"',
      code: '23514',
      httpStatus: 400,
    })
  })

  it('carries a gateway error without a code (e.g. a bad API key)', async () => {
    const { client } = fakeClient({ error: { message: 'Invalid API key' }, status: 401 })
    expect(await joinWaitlist(client, input)).toEqual({ status: 'failed', message: 'Invalid API key', httpStatus: 401 })
  })

  it('reports HTTP 429 as rate_limited', async () => {
    const { client } = fakeClient({ error: pgError('WL429', 'Too many sign-ups'), status: 429 })
    expect(await joinWaitlist(client, input)).toEqual({ status: 'rate_limited' })
  })

  it.each([
    [
      "the database's limit (the PostgREST body of the waitlist_rate_limit migration)",
      {
        code: 'WL429',
        message: 'Too many sign-ups from this network. Please wait a few minutes and try again.',
        details: 'At most 5 sign-ups per 10 minutes from one network.',
        hint: null,
      },
    ],
    ['a gateway limit without a code', { message: 'API rate limit exceeded' }],
    ['a body that mentions a duplicate key', pgError('23505', 'duplicate key value violates unique constraint "waitlist_email_unique"')],
    ['a body that says already on the waitlist', pgError('P0001', 'This address is already on the waitlist')],
  ])('reports any 429 as rate_limited, never duplicate or failed: %s', async (_, error) => {
    const { client } = fakeClient({ error, status: 429 })
    expect(await joinWaitlist(client, input)).toEqual({ status: 'rate_limited' })
  })

  it("reports a thrown exception as 'Failed to save to waitlist'", async () => {
    const { client } = fakeClient(() => {
      throw new TypeError('fetch failed')
    })
    expect(await joinWaitlist(client, input)).toEqual({ status: 'failed', message: 'Failed to save to waitlist' })
  })

  it("reports supabase-js' caught network error (status 0) as 'Failed to save to waitlist'", async () => {
    const { client } = fakeClient({ error: { message: 'TypeError: fetch failed', code: '' }, status: 0 })
    expect(await joinWaitlist(client, input)).toEqual({ status: 'failed', message: 'Failed to save to waitlist' })
  })

  it.each([200, 204, 0])('never reports success without a 201 (no error, status %i)', async (status) => {
    const { client } = fakeClient({ error: null, status })
    expect(await joinWaitlist(client, input)).toMatchObject({ status: 'failed', message: 'Failed to save to waitlist' })
  })
})
