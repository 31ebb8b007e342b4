import { describe, expect, it } from 'vitest'
import { playDemo } from '@/components/demo/demo-script'
import { toDemoConversation } from '@/sanity/content/reshape'

// A conversation as the query returns it: step one gives each reply its own follow-up,
// step two shares one, and step one is the one the insight quotes.
const raw = {
  _id: 'demoConversation-test',
  context: 'A test app · onboarding',
  opening: 'What brought you here?',
  steps: [
    {
      _key: 's1',
      followUp: null,
      quoted: true,
      replies: [
        { _key: 'a', text: 'Reply A', followUp: 'Follow-up to A' },
        { _key: 'b', text: 'Reply B', followUp: 'Follow-up to B' },
      ],
    },
    {
      _key: 's2',
      followUp: 'Shared closing line',
      quoted: null,
      replies: [
        { _key: 'c', text: 'Reply C', followUp: null },
        { _key: 'd', text: 'Reply D', followUp: 'Own closing line' },
        { _key: 'e', text: 'Reply E', followUp: '' },
      ],
    },
  ],
  insight: { channel: '#research', summary: 'Summary', tags: ['Onboarding'], sentiment: 'negative' as const, action: 'Do something' },
}

describe('toDemoConversation', () => {
  it('gives every reply its follow-up: its own, else the step’s shared one', () => {
    const conversation = toDemoConversation(raw)
    expect(conversation.steps.map((step) => step.replies.map((reply) => reply.followUp))).toEqual([
      ['Follow-up to A', 'Follow-up to B'],
      ['Shared closing line', 'Own closing line', 'Shared closing line'],
    ])
    expect(conversation.quotedStep).toBe(0)
    expect(conversation.insight).toEqual(raw.insight)
  })

  it('quotes the last step when none is marked', () => {
    expect(toDemoConversation({ ...raw, steps: raw.steps.map((step) => ({ ...step, quoted: false })) }).quotedStep).toBe(1)
  })
})

describe('playDemo', () => {
  const conversation = toDemoConversation(raw)
  const transcript = (choices: number[]) => playDemo(conversation, choices).messages.map((m) => `${m.from}: ${m.text}`)

  it('starts with the opening question and the first replies', () => {
    const state = playDemo(conversation, [])
    expect(transcript([])).toEqual(['interviewer: What brought you here?'])
    expect(state.replies?.map((r) => r.text)).toEqual(['Reply A', 'Reply B'])
    expect(state.quote).toBeNull()
  })

  it('follows the chosen reply with its own follow-up', () => {
    expect(transcript([1])).toEqual(['interviewer: What brought you here?', 'visitor: Reply B', 'interviewer: Follow-up to B'])
    expect(playDemo(conversation, [1]).replies?.map((r) => r.text)).toEqual(['Reply C', 'Reply D', 'Reply E'])
  })

  it('ends with no replies and the visitor’s own words as the key quote', () => {
    const state = playDemo(conversation, [1, 1])
    expect(transcript([1, 1]).slice(-2)).toEqual(['visitor: Reply D', 'interviewer: Own closing line'])
    expect(state.replies).toBeNull()
    expect(state.quote).toBe('Reply B')
    expect(playDemo(conversation, [0, 2]).quote).toBe('Reply A')
  })

  it('gives every message a distinct key', () => {
    const keys = playDemo(conversation, [0, 0]).messages.map((m) => m.key)
    expect(new Set(keys).size).toBe(keys.length)
  })
})
