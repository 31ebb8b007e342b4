/**
 * The copy of the site's languages into the database (components/waitlist/languages-sync.ts): the
 * Languages document's codes, English always among them, a malformed code left out and named, and a
 * failed read or store keeping the last set. The database side: tests/integration/waitlist-language.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { syncPublishedLanguages } from '@/components/waitlist/languages-sync'

const sync = (read: () => Promise<unknown>, replace = async (codes: string[]) => codes.length) => {
  const stored: string[][] = []
  return {
    stored,
    outcome: syncPublishedLanguages({
      read,
      replace: async (codes) => {
        stored.push(codes)
        return replace(codes)
      },
    }),
  }
}

describe('syncPublishedLanguages', () => {
  it('stores the published codes with English first, leaving out and naming a malformed one', async () => {
    const { stored, outcome } = sync(async () => [
      { code: 'de', title: 'Deutsch' },
      { code: 'FR; drop', title: 'x' },
      { code: 'pt-br', title: 'Português' },
      { title: 'no code' },
    ])
    expect(await outcome).toEqual({ kind: 'synced', languages: 3, skipped: ['language "FR; drop"', 'language null'] })
    expect(stored).toEqual([['en', 'de', 'pt-br']])
  })

  it('speaks English only without a Languages document', async () => {
    const { stored, outcome } = sync(async () => null)
    expect(await outcome).toMatchObject({ kind: 'synced', languages: 1 })
    expect(stored).toEqual([['en']])
  })

  it('keeps the last set when Sanity or the database fails, or the answer is not a list', async () => {
    expect(await sync(async () => Promise.reject(new Error('ENOTFOUND'))).outcome).toEqual({
      kind: 'kept',
      reason: "could not read the site's languages: ENOTFOUND",
    })
    expect(await sync(async () => ({ code: 'de' })).outcome).toEqual({ kind: 'kept', reason: "the query for the site's languages did not answer a list" })
    const failing = sync(
      async () => [{ code: 'de', title: 'Deutsch' }],
      async () => Promise.reject(new Error('HTTP 503')),
    )
    expect(await failing.outcome).toEqual({ kind: 'kept', reason: "could not store the site's languages: HTTP 503" })
  })
})
