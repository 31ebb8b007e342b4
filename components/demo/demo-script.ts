import type { DemoConversation } from '@/sanity/content/types'

/**
 * Plays a scripted demo conversation: given the replies the visitor has chosen so far (one
 * index per step), what the chat shows. Pure, so tests can step through any conversation.
 */

export type DemoMessage = { key: string; from: 'interviewer' | 'visitor'; text: string }

export type DemoState = {
  messages: DemoMessage[]
  /** The replies offered now; null once every step is answered. */
  replies: DemoConversation['steps'][number]['replies'] | null
  /** The insight's key quote (the visitor's reply to the quoted step), once the conversation is over. */
  quote: string | null
}

export function playDemo(conversation: DemoConversation, choices: readonly number[]): DemoState {
  const messages: DemoMessage[] = [{ key: 'opening', from: 'interviewer', text: conversation.opening }]
  const taken = Math.min(choices.length, conversation.steps.length)
  for (let index = 0; index < taken; index++) {
    const step = conversation.steps[index]!
    const reply = step.replies[choices[index]!] ?? step.replies[0]!
    messages.push({ key: `${step.key}:reply`, from: 'visitor', text: reply.text })
    if (reply.followUp) messages.push({ key: `${step.key}:follow-up`, from: 'interviewer', text: reply.followUp })
  }
  const done = taken === conversation.steps.length
  const quotedStep = conversation.steps[conversation.quotedStep]
  const quotedChoice = choices[conversation.quotedStep] ?? 0
  return {
    messages,
    replies: done ? null : conversation.steps[taken]!.replies,
    quote: done && quotedStep ? (quotedStep.replies[quotedChoice] ?? quotedStep.replies[0]!).text : null,
  }
}
