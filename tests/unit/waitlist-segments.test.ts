/**
 * The founders' words for whom to let in (tools/owner/segments.ts): `--where key=option` and the
 * console's ticked answers read into a segment against the questions published now, said back in
 * the questions' words, and how the line's counts line up with every option, unchosen ones too.
 */
import { describe, expect, it } from 'vitest'
import { answerCounts, describeSegment, segmentFrom } from '@/tools/owner/segments'
import type { PublishedQuestion } from '@/sanity/questions/rules'

const QUESTIONS: PublishedQuestion[] = [
  {
    key: 'role',
    kind: 'one',
    required: true,
    labels: { en: 'Role?', de: 'Rolle?' },
    options: [
      { key: 'product-manager', labels: { en: 'Product manager' } },
      { key: 'founder', labels: { en: 'Founder' } },
    ],
  },
  {
    key: 'team-size',
    kind: 'many',
    required: false,
    labels: { en: 'Team?' },
    options: [
      { key: '1-5', labels: { en: '1 to 5' } },
      { key: '6-20', labels: { en: '6 to 20' } },
    ],
  },
  { key: 'goal', kind: 'text', required: false, labels: { en: 'Goal?' }, options: [] },
]

describe('segmentFrom', () => {
  it('one question named twice widens it, two narrow it, and each option is kept once', () => {
    expect(segmentFrom(['role=product-manager', 'role=founder,product-manager', 'team-size=6-20'], QUESTIONS)).toEqual({
      segment: { role: ['product-manager', 'founder'], 'team-size': ['6-20'] },
    })
    expect(segmentFrom([], QUESTIONS)).toEqual({ segment: {} })
  })

  it('names what it cannot read: not key=option, an unknown or short-answer key, an unknown option', () => {
    const problem = (conditions: string[]) => (segmentFrom(conditions, QUESTIONS) as { problem?: string }).problem
    expect(problem(['role'])).toBe('"role" is not key=option (e.g. role=product-manager)')
    expect(problem(['role=a=b'])).toBe('"role=a=b" is not key=option (e.g. role=product-manager)')
    expect(problem(['team=1-5'])).toBe('No published question with options has the key "team"; they are: role, team-size')
    expect(problem(['goal=x'])).toBe('No published question with options has the key "goal"; they are: role, team-size')
    expect(problem(['role=ceo'])).toBe('"role" has no option "ceo"; its options are: product-manager, founder')
    expect(problem(['role=Founder'])).toMatch(/no option "Founder"/)
    expect((segmentFrom(['role=founder'], []) as { problem: string }).problem).toBe('No published question with options has the key "role": none is published')
  })
})

it('describeSegment says the segment in the questions’ English words', () => {
  expect(describeSegment({ role: ['product-manager', 'founder'], 'team-size': ['6-20'] }, QUESTIONS)).toBe(
    'role: Product manager or Founder, and team-size: 6 to 20',
  )
  // An option since removed is named by its key.
  expect(describeSegment({ role: ['designer'] }, QUESTIONS)).toBe('role: designer')
})

it('answerCounts lists every option of every question, with 0 for those nobody chose, and short answers as answered', () => {
  const counts = answerCounts(QUESTIONS, [
    { question: 'role', option: 'founder', entries: 3 },
    { question: 'goal', option: null, entries: 2 },
    { question: 'removed', option: 'x', entries: 9 },
  ])
  expect(counts).toEqual([
    {
      key: 'role',
      label: 'Role?',
      kind: 'one',
      answered: 0,
      options: [
        { option: 'product-manager', label: 'Product manager', entries: 0 },
        { option: 'founder', label: 'Founder', entries: 3 },
      ],
    },
    {
      key: 'team-size',
      label: 'Team?',
      kind: 'many',
      answered: 0,
      options: [
        { option: '1-5', label: '1 to 5', entries: 0 },
        { option: '6-20', label: '6 to 20', entries: 0 },
      ],
    },
    { key: 'goal', label: 'Goal?', kind: 'text', answered: 2, options: [] },
  ])
})

describe('rung=<key>', () => {
  const RUNGS = ['badge', 'founding-call']
  it('selects those granted any rung named, beside the answers (both), each rung kept once', () => {
    expect(segmentFrom(['rung=badge', 'rung=founding-call,badge', 'role=founder'], QUESTIONS, RUNGS)).toEqual({
      segment: { '@rung': ['badge', 'founding-call'], role: ['founder'] },
    })
    expect(describeSegment({ role: ['founder'], '@rung': ['badge', 'founding-call'] }, QUESTIONS)).toBe(
      'role: Founder, and rung: badge or founding-call (granted)',
    )
  })

  it('names a rung it does not know, and says when no ladder is published', () => {
    expect((segmentFrom(['rung=gold'], QUESTIONS, RUNGS) as { problem: string }).problem).toBe('No rung "gold"; the rungs are: badge, founding-call')
    expect((segmentFrom(['rung=badge'], QUESTIONS) as { problem: string }).problem).toBe('No rung "badge": no rewards ladder is published')
  })
})
