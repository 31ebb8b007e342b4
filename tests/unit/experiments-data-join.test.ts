/**
 * The join form's side of experiments (components/waitlist/join.ts): the assignments are read from
 * the `experiments` cookie strictly (nothing without it, i.e. without consent), and sent with the
 * sign-up only when there are some, so a sign-up without experiments is the insert it always was.
 */
import { describe, expect, it } from 'vitest'
import { assignmentsFromCookies, assignmentsToRecord, joinWaitlist, type WaitlistClient } from '@/components/waitlist/join'

describe('assignmentsFromCookies', () => {
  it('reads the experiments cookie among the others', () => {
    expect(assignmentsFromCookies('consent=granted; experiments=hero-words=b&cta-label=control; ph_abc=1')).toEqual({
      'hero-words': 'b',
      'cta-label': 'control',
    })
    expect(assignmentsFromCookies('experiments=hero-words=b')).toEqual({ 'hero-words': 'b' })
  })

  it('reads nothing without the cookie (no consent), from a look-alike name, or from malformed pairs', () => {
    for (const cookies of [
      '',
      'consent=denied',
      'my_experiments=hero-words=b',
      'experimentsx=hero-words=b',
      'experiments=',
      'experiments=Hero=b&<x>=y&hero-words',
    ]) {
      expect(assignmentsFromCookies(cookies), cookies).toEqual({})
    }
  })
})

describe('assignmentsToRecord', () => {
  const cookies = 'consent=granted; experiments=hero-words=b'

  it('records the variants of a visitor who takes part', () => {
    expect(assignmentsToRecord(cookies, false)).toEqual({ 'hero-words': 'b' })
  })

  it('records nothing once the browser asks not to be tracked (the proxy showed control), or without consent', () => {
    expect(assignmentsToRecord(cookies, true)).toEqual({})
    for (const without of [
      'experiments=hero-words=b',
      'consent=denied; experiments=hero-words=b',
      'consent=granted2; experiments=hero-words=b',
      'xconsent=granted; experiments=hero-words=b',
    ]) {
      expect(assignmentsToRecord(without, false), without).toEqual({})
    }
  })
})

describe('joinWaitlist with experiments', () => {
  function recording() {
    const rows: Record<string, unknown>[] = []
    const client: WaitlistClient = { from: () => ({ insert: (row) => (rows.push({ ...row }), Promise.resolve({ error: null, status: 201 })) }) }
    return { client, rows }
  }
  const input = { name: 'Ada', email: 'ada@example.com', company: '' }

  it('sends the assignments with the sign-up', async () => {
    const { client, rows } = recording()
    expect(await joinWaitlist(client, input, {}, { experiments: { 'hero-words': 'b' } })).toEqual({ status: 'saved' })
    expect(rows).toEqual([{ name: 'Ada', email: 'ada@example.com', project: '', experiments: { 'hero-words': 'b' } }])
  })

  it('sends no experiments field when there are none', async () => {
    const { client, rows } = recording()
    await joinWaitlist(client, input, {}, { experiments: {} })
    await joinWaitlist(client, input)
    expect(rows.every((row) => !('experiments' in row))).toBe(true)
  })
})
