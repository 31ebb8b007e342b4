/**
 * The reward ladder's rules (sanity/rewards/rules.ts: what the Studio refuses and what the publish
 * copies to the database), where a person stands on it (sanity/rewards/ladder.ts: the own page's
 * progress), its copy into the database on publish (components/waitlist/rewards-sync.ts), and the
 * e-mails that name a rung (the reward e-mail, the confirmation's first rung). The Studio's schema
 * over the seed: tests/integration/rewards-content.test.tsx; the database: tests/integration/rewards-db.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { countedWords, ladderProgress } from '@/sanity/rewards/ladder'
import { ladderProblem, publishableRungs, rungProblem, rungsIn, storedRung, type RungDraft } from '@/sanity/rewards/rules'
import { syncPublishedRewards } from '@/components/waitlist/rewards-sync'
import { renderLinkEmail, renderRewardEmail } from '@/components/waitlist/outbox/email'
import { editorsRewardsExample } from '@/tools/content/experiment-example'
import { seedEmailCopy } from '@/tools/content/seed-email-copy'
import { sendWebhook, WEBHOOK_TEST_SECRET } from '../helpers/revalidate-webhook'

const fake = vi.hoisted(() => ({
  rewards: (async () => []) as () => Promise<unknown>,
  rpc: (async () => ({ data: 0, error: null, status: 200 })) as (
    fn: string,
    args: unknown,
  ) => Promise<{ data: unknown; error: { message: string; code?: string } | null; status: number }>,
}))
vi.mock('next/cache', () => ({ revalidateTag: () => undefined }))
vi.mock('@/components/waitlist/updates-configured', () => ({ configuredBroadcast: () => ({ readPost: async () => null, broadcast: null }) }))
// Every other set's read answers none; the ladder's read answers what the test says.
vi.mock('@/sanity/content/published', async () => {
  const { publishedRewardsQuery } = await import('@/sanity/queries')
  return { readPublished: (query: string) => (query === publishedRewardsQuery ? fake.rewards() : Promise.resolve([])) }
})
vi.mock('@/lib/supabase/configured', () => ({ configuredServiceClient: () => ({ rpc: (fn: string, args: unknown) => fake.rpc(fn, args) }) }))

const { POST } = await import('@/app/api/revalidate/route')

const example = editorsRewardsExample()
const drafts = () => structuredClone(example.rungs) as RungDraft[]
const ladder = (language: string) => rungsIn(publishableRungs(example.rungs).rungs, language)

describe('the ladder’s rules', () => {
  it('accepts the editors’ guide’s example, each rung, and no rung at all', () => {
    expect(ladderProblem(drafts())).toBeNull()
    for (const rung of drafts()) expect(rungProblem(rung, ['de'])).toBeNull()
    expect(ladderProblem([])).toBeNull()
  })

  it('refuses more than 8 rungs, two at one number, rungs out of order and two with one key', () => {
    const [first, second] = drafts() as [RungDraft, RungDraft]
    const nine = Array.from({ length: 9 }, (_, i) => ({ ...first, key: `r${i}`, threshold: i + 1 }))
    expect(ladderProblem(nine)).toMatch(/At most 8 rungs/)
    expect(ladderProblem([first, { ...second, threshold: first.threshold }])).toMatch(/Two rungs are earned at 1 friends/)
    expect(ladderProblem([second, first])).toMatch(/fewest first: 1 comes after 2/)
    expect(ladderProblem([first, { ...second, key: first.key }])).toMatch(/Two rungs use the key "skip-100"/)
  })

  it('refuses a rung without its number, places or approval, a bad key, a missing language and words that break the plain-text rule', () => {
    const [places, perk] = drafts() as [RungDraft, RungDraft]
    const cases: [RungDraft, RegExp][] = [
      [{ ...places, threshold: undefined }, /how many confirmed friends/],
      [{ ...places, threshold: 0 }, /from 1 to 10000/],
      [{ ...places, threshold: 2.5 }, /whole number/],
      [{ ...places, places: undefined }, /how many places/],
      [{ ...places, places: 1_000_001 }, /from 1 to 1000000/],
      [{ ...places, threshold: 10_001 }, /from 1 to 10000/],
      [{ ...perk, approval: undefined }, /granted at once or held/],
      [{ ...perk, kind: 'cash' }, /Choose what the rung gives/],
      [{ ...places, key: 'Skip 100' }, /lowercase letters/],
      [{ ...places, title: places.title!.filter((entry) => entry.language === 'en') }, /Add the de text/],
      [{ ...places, title: [{ language: 'en', text: 'Skip\u202e 100' }, places.title![1]!] }, /text-direction control/],
      [{ ...places, description: [{ language: 'en', text: 'x'.repeat(201) }, places.description![1]!] }, /over 200 characters/],
    ]
    for (const [rung, problem] of cases) expect(rungProblem(rung, ['de']), String(problem)).toMatch(problem)
  })

  it('copies numbers and kinds only, and leaves out (naming it) a rung written around the Studio, keeping the rest rising', () => {
    const [a, b, c] = drafts() as [RungDraft, RungDraft, RungDraft]
    const { rungs, skipped } = publishableRungs([a, { ...b, threshold: 1 }, { ...c, kind: 'cash' }, 'nonsense', null, { ...c, places: 5 }])
    expect(rungs.map(storedRung)).toEqual([
      { key: 'skip-100', threshold: 1, kind: 'places', places: 100, approval: null },
      // A perk's stale places (the Studio hides the field, it may keep a value) never reach the database.
      { key: 'founder-call', threshold: 3, kind: 'perk', places: null, approval: 'held' },
    ])
    expect(skipped).toEqual([
      expect.stringMatching(/^rung "founding-badge" \(not above 1 friends\)$/),
      expect.stringMatching(/^rung "founder-call" \(Choose what the rung gives\)$/),
      expect.stringMatching(/^rung null/),
      expect.stringMatching(/^rung null/),
    ])
    const nine = Array.from({ length: 9 }, (_, i) => ({ ...a, key: `r${i}`, threshold: i + 1 }))
    expect(publishableRungs(nine)).toMatchObject({ rungs: { length: 8 }, skipped: [expect.stringContaining('over 8')] })
  })

  it('gives each rung its words in the page’s language, English where one is missing', () => {
    expect(ladder('de')[0]).toEqual({
      key: 'skip-100',
      threshold: 1,
      kind: 'places',
      places: 100,
      approval: null,
      title: '100 Plätze nach vorn',
      description: expect.stringContaining('100 Plätze'),
    })
    expect(ladder('fr')[0]!.title).toBe('Skip 100 places')
  })
})

describe('where a person stands', () => {
  const rungs = ladder('en')
  it('before any friend, the next rung is the first', () => {
    expect(ladderProgress(rungs, 0, [])).toEqual({ earned: [], next: { rung: rungs[0], remaining: 1 } })
  })

  it('lists what the database recorded, a held perk as held, and counts the friends to the next rung', () => {
    const progress = ladderProgress(rungs, 3, [
      { rung: 'skip-100', status: 'granted' },
      { rung: 'founding-badge', status: 'granted' },
      { rung: 'founder-call', status: 'held' },
    ])
    expect(progress.earned.map((rung) => [rung.key, rung.status])).toEqual([
      ['skip-100', 'granted'],
      ['founding-badge', 'granted'],
      ['founder-call', 'held'],
    ])
    expect(progress.next).toEqual({ rung: rungs[3], remaining: 7 })
  })

  it('never shows a rung at or below their count as next (the database grants it on its copy), nor one past the top', () => {
    expect(ladderProgress(rungs, 2, [{ rung: 'skip-100', status: 'granted' }]).next).toEqual({ rung: rungs[2], remaining: 1 })
    const all = rungs.map((rung) => ({ rung: rung.key, status: 'granted' as const }))
    expect(ladderProgress(rungs, 12, all).next).toBeNull()
    // A rung the marketers removed stays in the database but is not shown.
    expect(ladderProgress(rungs.slice(1), 1, [{ rung: 'skip-100', status: 'granted' }]).earned).toEqual([])
  })

  it('says "1 more friend" and "3 more friends" by the language’s plural rules', () => {
    const words = { one: '1 more friend', other: '{n} more friends' }
    expect(countedWords(words, 1, 'en')).toBe('1 more friend')
    expect(countedWords(words, 3, 'en')).toBe('{n} more friends')
    expect(countedWords(words, 1, 'de')).toBe('1 more friend')
    expect(countedWords(words, 0, 'en')).toBe('{n} more friends')
  })
})

describe('syncPublishedRewards', () => {
  it('replaces the ladder with what Sanity says, naming what it leaves out', async () => {
    const replace = vi.fn(async (rungs: unknown[]) => rungs.length)
    const [a, b] = drafts() as [RungDraft, RungDraft]
    expect(await syncPublishedRewards({ read: async () => [a, { ...b, key: 'Bad' }], replace })).toEqual({
      kind: 'synced',
      rungs: 1,
      skipped: [expect.stringContaining('rung "Bad"')],
    })
    expect(replace).toHaveBeenCalledWith([{ key: 'skip-100', threshold: 1, kind: 'places', places: 100, approval: null }])
  })

  it('keeps the last ladder, never wiping it, when Sanity cannot be read, answers something else, or the store fails', async () => {
    const replace = vi.fn(async () => 0)
    expect(await syncPublishedRewards({ read: () => Promise.reject(new Error('ENOTFOUND')), replace })).toEqual({
      kind: 'kept',
      reason: 'could not read the reward ladder: ENOTFOUND',
    })
    for (const answer of [null, undefined, { rungs: [] }])
      expect(await syncPublishedRewards({ read: async () => answer, replace })).toMatchObject({ kind: 'kept' })
    expect(replace).not.toHaveBeenCalled()
    expect(await syncPublishedRewards({ read: async () => [], replace: () => Promise.reject(new Error('HTTP 503')) })).toEqual({
      kind: 'kept',
      reason: 'could not store the reward ladder: HTTP 503',
    })
  })
})

describe('the e-mails that name a rung', () => {
  const unsubscribeUrl = 'https://heardly.example/waitlist/unsubscribe#token=U'

  it('the reward e-mail greets by name, names the reward in the person’s language, and offers the way off the list', async () => {
    for (const language of ['en', 'de']) {
      const copy = seedEmailCopy(language, ladder(language))
      const rung = copy.rewards[0]!
      const email = await renderRewardEmail({ copy, name: 'Ada', rung, unsubscribeUrl })
      expect(email.subject).toBe(copy.rewardSubject.replace('{reward}', rung.title))
      expect(email.text).toContain('Ada')
      expect(email.text).toContain(rung.title)
      expect(email.text).toContain(rung.description)
      expect(email.text).toContain(copy.rewardBody)
      expect(email.html).toContain(`lang="${language}"`)
      expect(email.html).toContain(unsubscribeUrl)
    }
  })

  it('a held perk a founder approved says so, and the subject stays one line of plain text whatever the title holds', async () => {
    const copy = seedEmailCopy('en', ladder('en'))
    const held = copy.rewards.find((rung) => rung.approval === 'held')!
    expect((await renderRewardEmail({ copy, name: 'Ada', rung: held, unsubscribeUrl })).text).toContain(copy.rewardHeldBody)
    const odd = { ...held, title: 'A call\u202e\nBcc: x@example.com' }
    expect((await renderRewardEmail({ copy, name: 'Ada', rung: odd, unsubscribeUrl })).subject).not.toMatch(/[\n\u202e]/)
  })

  it('the confirmation e-mail names the first rung, in the plural form its number takes, and says nothing without a ladder', async () => {
    const base = {
      kind: 'confirmation_email' as const,
      url: 'https://heardly.example/waitlist/confirm#token=T',
      expires: '1 December 2026, 10:00 UTC',
      unsubscribeUrl,
    }
    const en = await renderLinkEmail({ ...base, copy: seedEmailCopy('en', ladder('en')) })
    expect(en.text).toContain('Bring 1 friend who confirms and you get: Skip 100 places.')
    const three = ladder('de').slice(2)
    const de = await renderLinkEmail({ ...base, copy: seedEmailCopy('de', three) })
    expect(de.text).toContain('Bringen Sie 3 Personen mit, die sich bestätigen, und Sie erhalten: Ein Gespräch mit dem Gründerteam.')
    const none = await renderLinkEmail({ ...base, copy: seedEmailCopy('en') })
    expect(none.text).not.toContain('Bring ')
    // A new link to the person's own page is not the place for it.
    const access = await renderLinkEmail({ ...base, kind: 'access_email', copy: seedEmailCopy('en', ladder('en')) })
    expect(access.text).not.toContain('Bring 1 friend')
  })
})

describe('on every publish webhook', () => {
  beforeAll(() => vi.stubEnv('SANITY_REVALIDATE_SECRET', WEBHOOK_TEST_SECRET))
  afterAll(() => vi.unstubAllEnvs())
  const webhook = (change: { _type: string; _id: string }) => sendWebhook(POST, change)

  it('copies the ladder through the service-role function, and a failed copy answers 500 to the ladder’s own publish only', async () => {
    const calls: [string, unknown][] = []
    fake.rewards = async () => drafts().slice(0, 1)
    fake.rpc = async (fn, args) => (calls.push([fn, args]), { data: fn === 'waitlist_replace_rewards' ? 1 : 0, error: null, status: 200 })
    expect(await webhook({ _type: 'waitlistRewards', _id: 'waitlistRewards' })).toMatchObject({ status: 200, body: { rewards: { kind: 'synced', rungs: 1 } } })
    expect(calls).toContainEqual(['waitlist_replace_rewards', { rungs: [{ key: 'skip-100', threshold: 1, kind: 'places', places: 100, approval: null }] }])
    fake.rpc = async () => ({ data: null, error: { message: 'permission denied', code: '42501' }, status: 403 })
    expect(await webhook({ _type: 'waitlistRewards', _id: 'waitlistRewards' })).toMatchObject({
      status: 500,
      body: { rewards: { kind: 'kept', reason: expect.stringContaining('HTTP 403 42501') } },
    })
    expect(await webhook({ _type: 'post', _id: 'post-1' })).toMatchObject({ status: 200, body: { rewards: { kind: 'kept' } } })
    // A document type named like an object's own property is no set's.
    expect(await webhook({ _type: 'constructor', _id: 'x' })).toMatchObject({ status: 200 })
  })
})
