/**
 * The founders' experiment results (components/variants/results.ts, results-posthog.ts) and
 * their table in the console (tools/owner/console/page.ts): Wilson's 95 % interval against a
 * published table, the rows per variant, PostHog's answer read strictly, and the HTML.
 */
import { describe, expect, it, vi } from 'vitest'
import { experimentResults, formatRate, wilsonInterval } from '@/components/variants/results'
import { fetchParticipants, participantsFrom, participantsQuery } from '@/components/variants/results-posthog'
import { posthogQueryEnv } from '@/lib/env'
import { experimentsSection } from '@/tools/owner/console/page'
import { tableRows } from '../helpers/console-page'

describe("Wilson's score interval", () => {
  // Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven
  // methods", Statistics in Medicine 17 (1998) 857-872, Table I, method 3 (score, no continuity
  // correction), to the four decimals printed there.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%i of %i: %f to %f, as Newcombe (1998) tabulates', (successes, trials, low, high) => {
    const interval = wilsonInterval(successes, trials)!
    expect(interval.low).toBeCloseTo(low, 4)
    expect(interval.high).toBeCloseTo(high, 4)
  })

  it('is the set of rates the score test does not reject, found here by bisection instead of the closed form', () => {
    const z = 1.959963984540054
    const rejects = (p: number, x: number, n: number) => Math.abs(x / n - p) > z * Math.sqrt((p * (1 - p)) / n)
    const bound = (x: number, n: number, from: number, to: number) => {
      // `from` is accepted, `to` rejected: halve until they meet.
      for (let i = 0; i < 80; i++) {
        const mid = (from + to) / 2
        if (rejects(mid, x, n)) to = mid
        else from = mid
      }
      return from
    }
    const cases: [number, number][] = [
      [0, 9],
      [3, 7],
      [50, 1000],
      [999, 1000],
      [12, 40],
      [7, 7],
    ]
    for (const [x, n] of cases) {
      const interval = wilsonInterval(x, n)!
      const p = x / n
      expect(interval.low, `${x}/${n}`).toBeCloseTo(x === 0 ? 0 : bound(x, n, p, 0), 9)
      expect(interval.high, `${x}/${n}`).toBeCloseTo(x === n ? 1 : bound(x, n, p, 1), 9)
    }
  })

  it('stays within 0 and 1, and has no interval without trials or for impossible counts', () => {
    expect(wilsonInterval(5, 5)).toMatchObject({ high: 1 })
    expect(wilsonInterval(0, 1)).toMatchObject({ low: 0 })
    for (const [x, n] of [
      [0, 0],
      [3, 2],
      [-1, 5],
      [1.5, 3],
    ])
      expect(wilsonInterval(x!, n!)).toBeNull()
  })

  it('prints a rate with its interval', () => {
    expect(formatRate({ rate: 81 / 263, interval: wilsonInterval(81, 263)! })).toBe('30.8 % (25.5–36.6 %)')
    expect(formatRate(null)).toBe('–')
  })
})

describe('results per experiment and variant', () => {
  const counts = [
    { experiment: 'hero-words', variant: 'b', signups: 15, confirmations: 10 },
    { experiment: 'hero-words', variant: 'control', signups: 81, confirmations: 40 },
    { experiment: 'cta-label', variant: 'short', signups: 0, confirmations: 0 },
  ]

  it('without PostHog: control first, the confirmation rate of sign-ups, no participants', () => {
    const [cta, hero] = experimentResults(counts, null)
    expect(cta).toMatchObject({ experiment: 'cta-label', variants: [{ variant: 'short', participants: null, confirmation: null, signup: null }] })
    expect(hero!.variants.map((v) => v.variant)).toEqual(['control', 'b'])
    expect(hero!.variants[0]).toMatchObject({
      participants: null,
      signups: 81,
      confirmations: 40,
      confirmation: { rate: 40 / 81, interval: wilsonInterval(40, 81) },
      signup: null,
    })
  })

  it('with PostHog: participants and the sign-up rate, a variant seen but not yet signed up, no rate when sign-ups exceed participants', () => {
    const participants = new Map([
      [
        'hero-words',
        new Map([
          ['control', 263],
          ['b', 10],
          ['c', 40],
        ]),
      ],
    ])
    const [, hero] = experimentResults(counts, participants)
    expect(hero!.variants.map((v) => [v.variant, v.participants, v.signups])).toEqual([
      ['control', 263, 81],
      ['b', 10, 15],
      ['c', 40, 0],
    ])
    expect(hero!.variants[0]!.signup).toEqual({ rate: 81 / 263, interval: wilsonInterval(81, 263) })
    expect(hero!.variants[1]!.signup).toBeNull()
    expect(hero!.variants[2]!.signup).toEqual({ rate: 0, interval: wilsonInterval(0, 40) })
  })
})

describe("PostHog's participants", () => {
  it('asks HogQL for distinct people per exposure, naming only well-formed keys', () => {
    const query = participantsQuery(['hero-words', "x' OR 1=1 --", 'cta-label'])
    expect(query).toContain("properties.$feature_flag IN ('hero-words', 'cta-label')")
    expect(query).toContain("event = '$feature_flag_called'")
    expect(query).toContain('count(DISTINCT person_id)')
    expect(query).not.toContain('OR 1=1')
  })

  it('reads the answer strictly', () => {
    const read = participantsFrom([
      ['hero-words', 'b', 12],
      ['hero-words', 'control', 30],
      ['Bad Key', 'b', 5],
      ['hero-words', '<b>', 1],
      ['hero-words', 'c', -3],
      'junk',
      ['hero-words', 'c', '7'],
    ])
    expect([...read.get('hero-words')!]).toEqual([
      ['b', 12],
      ['control', 30],
    ])
    expect(read.size).toBe(1)
  })

  it('posts the query to the EU cloud with the personal key, and reports a refusal', async () => {
    const fetcher = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(Response.json({ results: [['hero-words', 'b', 3]] }))
      .mockResolvedValueOnce(new Response('no', { status: 403 }))
      .mockResolvedValueOnce(Response.json({ error: 'no' }))
    const config = { personalApiKey: 'phx_abcdefghijklmnopqrstuvwxyz', projectId: '12345' }
    expect([...(await fetchParticipants(config, ['hero-words'], fetcher)).get('hero-words')!]).toEqual([['b', 3]])
    const [url, init] = fetcher.mock.calls[0]!
    expect(url).toBe('https://eu.posthog.com/api/projects/12345/query/')
    expect(init?.headers).toMatchObject({ Authorization: 'Bearer phx_abcdefghijklmnopqrstuvwxyz' })
    expect(JSON.parse(String(init?.body))).toMatchObject({ query: { kind: 'HogQLQuery' } })
    await expect(fetchParticipants(config, ['hero-words'], fetcher)).rejects.toThrow('HTTP 403')
    await expect(fetchParticipants(config, ['hero-words'], fetcher)).rejects.toThrow(/without results/)
    expect(fetcher).toHaveBeenCalledTimes(3)
  })

  it('is configured by both settings or neither, validated', () => {
    expect(posthogQueryEnv({})).toBeNull()
    expect(posthogQueryEnv({ POSTHOG_PERSONAL_API_KEY: 'phx_abcdefghijklmnopqrstuvwxyz', POSTHOG_PROJECT_ID: '42' })).toEqual({
      personalApiKey: 'phx_abcdefghijklmnopqrstuvwxyz',
      projectId: '42',
    })
    expect(() => posthogQueryEnv({ POSTHOG_PERSONAL_API_KEY: 'phx_abcdefghijklmnopqrstuvwxyz' })).toThrow('POSTHOG_PROJECT_ID')
    expect(() => posthogQueryEnv({ POSTHOG_PERSONAL_API_KEY: 'phc_public_project_key_not_personal', POSTHOG_PROJECT_ID: '42' })).toThrow(
      'POSTHOG_PERSONAL_API_KEY',
    )
    expect(() => posthogQueryEnv({ POSTHOG_PERSONAL_API_KEY: 'phx_abcdefghijklmnopqrstuvwxyz', POSTHOG_PROJECT_ID: '42/../1' })).toThrow('POSTHOG_PROJECT_ID')
  })
})

describe("the console's experiment tables", () => {
  const counts = [
    { experiment: 'hero-words', variant: 'b', signups: 15, confirmations: 10 },
    { experiment: 'hero-words', variant: 'control', signups: 81, confirmations: 40 },
  ]

  it('without PostHog: one labelled table per experiment, sign-ups alone, and says so', () => {
    const page = experimentsSection({ results: experimentResults(counts, null), participants: { kind: 'not-configured' } }).text
    expect(page).toContain('<h3>hero-words</h3>')
    expect(page).toContain('not configured')
    expect(page).toMatch(
      /<th scope="col">Variant<\/th><th scope="col" class="n">Signed up<\/th><th scope="col" class="n">Confirmed<\/th><th scope="col">Confirmation rate \(95 % interval\)<\/th>/,
    )
    expect(tableRows(page, 'Experiment hero-words')).toEqual([
      ['control', '81', '40', formatRate({ rate: 40 / 81, interval: wilsonInterval(40, 81)! })],
      ['b', '15', '10', '66.7 % (41.7–84.8 %)'],
    ])
  })

  it('with PostHog: participants and the sign-up rate; a PostHog failure is said, with sign-ups alone', () => {
    const participants = new Map([
      [
        'hero-words',
        new Map([
          ['control', 263],
          ['b', 148],
        ]),
      ],
    ])
    const page = experimentsSection({ results: experimentResults(counts, participants), participants: { kind: 'read' } }).text
    expect(tableRows(page, 'Experiment hero-words')).toEqual([
      ['control', '263', '81', '30.8 % (25.5–36.6 %)', '40', formatRate({ rate: 40 / 81, interval: wilsonInterval(40, 81)! })],
      ['b', '148', '15', '10.1 % (6.2–16.0 %)', '10', '66.7 % (41.7–84.8 %)'],
    ])
    const failed = experimentsSection({
      results: experimentResults(counts, null),
      participants: { kind: 'failed', reason: "PostHog's query API answered HTTP 401" },
    }).text
    expect(failed).toContain('role="status"')
    expect(failed).toContain('HTTP 401')
    expect(tableRows(failed, 'Experiment hero-words')[0]).toHaveLength(4)
  })

  it('escapes what it shows and says when nothing was recorded', () => {
    const page = experimentsSection({ results: [], participants: { kind: 'failed', reason: '<script>alert(1)</script>' } }).text
    expect(page).not.toContain('<script>')
    expect(page).toContain('No sign-up has recorded an experiment yet.')
  })
})
