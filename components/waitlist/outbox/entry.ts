import type { StoredAnswers } from '@/sanity/questions/rules'

/**
 * The person a claimed message is about, as the claim and the last check before the send read them
 * (private.waitlist_outbox_entry, supabase/schemas/07_outbox.sql). Its own module because the
 * dispatcher (dispatch.ts) and the messages it hands them to (slack.ts, webhook.ts) all need it.
 */
export type ClaimedEntry = {
  id: string
  name: string
  email: string
  project: string
  utm_source: string | null
  utm_medium: string | null
  utm_campaign: string | null
  referrer_host: string | null
  landing_path: string | null
  /** The person's public referral code, for the share links in the confirmation e-mail (absent in messages claimed before it was added). */
  referral_code?: string
  /** The answers to the questions at sign-up, as stored (supabase/schemas/15_questions.sql). */
  answers?: StoredAnswers
}
