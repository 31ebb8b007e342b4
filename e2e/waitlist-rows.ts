import { createClient } from '@supabase/supabase-js'
import { LOCAL_SERVICE_ROLE_KEY } from '../tools/supabase-local/keys'
import { E2E } from '../tools/test/e2e-env'

export const supabaseUrl = `http://127.0.0.1:${E2E.supabasePort}`

// The site owner's view of the test database: what was really stored.
export const owner = createClient(supabaseUrl, LOCAL_SERVICE_ROLE_KEY, { auth: { persistSession: false } })

export async function rowsFor(email: string) {
  const { data, error } = await owner.from('waitlist').select('name, email, project').ilike('email', email.trim())
  if (error) throw new Error(error.message)
  return data
}

/** The outbox's erasure e-mails ("Delete me"): their status and what they still hold. */
export async function erasureMessages() {
  const { data, error } = await owner.from('waitlist_outbox').select('status, entry_id, payload').eq('kind', 'erasure_email')
  if (error) throw new Error(error.message)
  return data
}

/** An entry's status as the owner sees it ('pending', 'confirmed'), or null when there is none. */
export async function statusOf(email: string): Promise<string | null> {
  const { data, error } = await owner.from('waitlist').select('status').ilike('email', email.trim())
  if (error) throw new Error(error.message)
  return (data[0] as { status: string } | undefined)?.status ?? null
}

/** What the places per referral are (private.waitlist_referral_settings; the migrations' default). */
export const PLACES_PER_REFERRAL = 5

/**
 * Who waits in line, in order, as docs/founders.md states the rule, computed here on its own: the
 * confirmed people in order of confirmation, each confirmed referral moving an entry up
 * PLACES_PER_REFERRAL places and each place a reward rung gave one more, ties to the earlier
 * confirmation.
 */
export async function waitingLine(): Promise<string[]> {
  const { data, error } = await owner.from('waitlist').select('id, email, confirmed_at, created_at, referral_credits, reward_places').eq('status', 'confirmed')
  if (error) throw new Error(error.message)
  const rows = data as { id: string; email: string; confirmed_at: string | null; created_at: string; referral_credits: number; reward_places: number }[]
  const arrival = [...rows].sort(
    (a, b) =>
      (a.confirmed_at ?? a.created_at).localeCompare(b.confirmed_at ?? b.created_at) || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
  )
  return arrival
    .map((row, index) => ({ email: row.email, arrival: index + 1, score: index + 1 - PLACES_PER_REFERRAL * row.referral_credits - row.reward_places }))
    .sort((a, b) => a.score - b.score || a.arrival - b.arrival)
    .map((row) => row.email)
}

/** Waits until the dispatcher has dealt with every message of the outbox (none pending or being sent). */
export async function outboxSettled(): Promise<void> {
  const { expect } = await import('@playwright/test')
  await expect
    .poll(
      async () => {
        const { count, error } = await owner
          .from('waitlist_outbox')
          .select('id', { count: 'exact', head: true })
          .in('status', ['pending', 'sending'])
          .lte('available_at', new Date().toISOString())
        if (error) throw new Error(error.message)
        return count
      },
      { timeout: 15_000, message: 'the outbox to be sent' },
    )
    .toBe(0)
}
