/**
 * Cheap filters for scripted sign-ups, applied in the form before anything is sent.
 * A submit that trips them is answered as if it succeeded, so a bot has nothing to adapt
 * to, while nothing is stored and no analytics event is recorded.
 */

/** The honeypot's field name: tempting to a form-filling bot, hidden from people and screen readers. */
export const HONEYPOT_FIELD = 'website'

/**
 * A person needs longer than this between the form appearing and sending it, even with
 * autofill: reading the page, choosing a suggestion and pressing the button.
 */
export const MIN_FILL_MS = 1500

export type BotVerdict = 'person' | 'honeypot' | 'too_fast'

export function judgeSubmission({ honeypot, shownAt, submittedAt }: { honeypot: string; shownAt: number; submittedAt: number }): BotVerdict {
  if (honeypot.trim() !== '') return 'honeypot'
  if (submittedAt - shownAt < MIN_FILL_MS) return 'too_fast'
  return 'person'
}
