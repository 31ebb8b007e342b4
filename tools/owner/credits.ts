/**
 * Held referral credits (supabase/schemas/05_line.sql): a credit a referral earned while it looked
 * like one person farming their own link (a disposable-mail domain, a blocked domain, the
 * referrer's own network, too many within the hour) is held, moving nobody, until a founder grants
 * or refuses it. `npm run waitlist:credits` and the console both go through here, and the database
 * decides (public.waitlist_held_credits, public.waitlist_decide_credit): each credit once.
 */
import { alignedTable, terminalSafe, utcMinute, type OwnerClient } from './owner'

export type HoldReason = 'disposable_domain' | 'blocked_domain' | 'same_network' | 'velocity'

/** One row of public.waitlist_held_credits. */
export type HeldCredit = {
  id: number
  reason: HoldReason
  held_at: string
  decision: 'granted' | 'refused' | null
  decided_at: string | null
  referrer_name: string
  referrer_email: string
  /** Null once the referred person erased themselves. */
  referred_email: string | null
}

export type CreditDecision = { id: number; decision: 'granted' | 'refused'; changed: boolean }

/** Why a credit was held, in words a founder reads at a glance. */
export const HOLD_REASONS: Record<HoldReason, string> = {
  disposable_domain: 'disposable e-mail domain',
  blocked_domain: 'domain on your blocklist',
  same_network: 'same network as the referrer',
  velocity: 'many referrals within the hour',
}

export async function listHeldCredits(client: OwnerClient, includeDecided = false): Promise<HeldCredit[]> {
  const { data, error } = await client.rpc('waitlist_held_credits', { include_decided: includeDecided })
  if (error) throw new Error(`Could not read the held credits: ${error.message}`)
  return data as HeldCredit[]
}

/** Grants or refuses held credit `id`; null when there is no such credit. */
export async function decideCredit(client: OwnerClient, id: number, grant: boolean): Promise<CreditDecision | null> {
  const { data, error } = await client.rpc('waitlist_decide_credit', { hold_id: id, grant_credit: grant })
  if (error) throw new Error(`Could not decide credit ${id}: ${error.message}`)
  return data as CreditDecision | null
}

export function formatHeldCredits(credits: readonly HeldCredit[]): string {
  if (credits.length === 0) return 'No held referral credits.\n'
  const rows = credits.map((credit) => [
    String(credit.id),
    utcMinute(credit.held_at),
    HOLD_REASONS[credit.reason] ?? credit.reason,
    terminalSafe(credit.referrer_name),
    terminalSafe(credit.referrer_email),
    credit.referred_email === null ? '(erased)' : terminalSafe(credit.referred_email),
    credit.decision ?? 'held',
  ])
  const table = alignedTable(['Id', 'Held (UTC)', 'Why', 'Referrer', 'Referrer e-mail', 'Referred e-mail', 'Decision'], rows)
  return `${table}Grant with \`npm run waitlist:credits -- --grant <id>\`, refuse with \`-- --refuse <id>\`.\n`
}

export function formatDecision(id: number, grant: boolean, result: CreditDecision | null): string {
  if (result === null) return `No held credit ${id}.\n`
  if (!result.changed) return `Credit ${id} was already ${result.decision}: nothing changed.\n`
  return grant ? `Granted credit ${id}: it now counts, and moves the referrer up like any other.\n` : `Refused credit ${id}: it stays uncounted.\n`
}
