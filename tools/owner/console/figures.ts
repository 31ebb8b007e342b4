/**
 * The console's figures, computed from the entries the owner's commands read
 * (fetchAllWaitlistEntries): pure functions, so the page and its tests share one arithmetic.
 * Every figure counts the entries still in the list: an erased person, or an unconfirmed sign-up
 * purged after its week, is in none of them.
 */
import { describeWaitlistSource } from '../../../components/waitlist/source'
import type { WaitlistEntry } from '../csv'
import { utcDay, waitlistFunnel } from '../owner'

export type FunnelStep = { label: string; count: number; /** Share of the step before; null for the first step or when that step is empty. */ rate: number | null; of: string | null }

/** Signed up → confirmed → invited → joined, each with its share of the step before. */
export function funnelSteps(entries: readonly WaitlistEntry[]): FunnelStep[] {
  const funnel = waitlistFunnel(entries)
  const steps: [string, number][] = [
    ['Signed up', funnel.signedUp],
    ['Confirmed', funnel.confirmed],
    ['Invited', funnel.invited],
    ['Joined', funnel.joined],
  ]
  return steps.map(([label, count], index) => {
    const before = steps[index - 1]
    return { label, count, rate: before ? share(count, before[1]) : null, of: before ? before[0].toLowerCase() : null }
  })
}

/** part / whole, or null when there is no whole to be a share of (never NaN or Infinity). */
export function share(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null
}

/** "71.4 %", or "n/a" when there is nothing to compare with. */
export function formatShare(value: number | null): string {
  return value === null ? 'n/a' : `${(Math.round(value * 1000) / 10).toFixed(1)} %`
}

export type DayCount = { day: string; signUps: number; confirmations: number }

const DAY_MS = 86_400_000

/**
 * Sign-ups (by the day they signed up) and confirmations (by the day they confirmed) per UTC day,
 * through today, from the first sign-up or from `days` days before today, whichever is later;
 * days with none included. Empty when nobody has signed up. Entries confirmed before double
 * opt-in have no confirmation day.
 */
export function perDay(entries: readonly WaitlistEntry[], now: Date, days = 30): DayCount[] {
  if (entries.length === 0) return []
  const today = utcDay(now.toISOString())
  const firstSignUp = entries.map((entry) => utcDay(entry.created_at)).sort()[0]!
  const windowStart = utcDay(new Date(now.getTime() - (days - 1) * DAY_MS).toISOString())
  const series = new Map<string, DayCount>()
  for (let time = Date.parse(`${firstSignUp > windowStart ? firstSignUp : windowStart}T00:00:00Z`); ; time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10)
    if (day > today) break
    series.set(day, { day, signUps: 0, confirmations: 0 })
  }
  for (const entry of entries) {
    const signedUp = series.get(utcDay(entry.created_at))
    if (signedUp) signedUp.signUps++
    const confirmed = entry.confirmed_at ? series.get(utcDay(entry.confirmed_at)) : undefined
    if (confirmed) confirmed.confirmations++
  }
  return [...series.values()]
}

export type SourceCount = { label: string | null; signedUp: number; confirmed: number }

/** Entries grouped by a label (null: nothing recorded, listed last), most sign-ups first. */
function groupBy(entries: readonly WaitlistEntry[], label: (entry: WaitlistEntry) => string | null): SourceCount[] {
  const groups = new Map<string | null, SourceCount>()
  for (const entry of entries) {
    const key = label(entry)
    const group = groups.get(key) ?? { label: key, signedUp: 0, confirmed: 0 }
    group.signedUp++
    if (entry.status !== 'pending') group.confirmed++
    groups.set(key, group)
  }
  return [...groups.values()].sort((a, b) => Number(a.label === null) - Number(b.label === null) || b.signedUp - a.signedUp || (a.label ?? '').localeCompare(b.label ?? ''))
}

const NONE = { utm_source: null, utm_medium: null, utm_campaign: null, referrer_host: null, landing_path: null }

/** By campaign tags (source / medium / campaign), worded as the owner's list and Slack word them. */
export const byCampaign = (entries: readonly WaitlistEntry[]) =>
  groupBy(entries, (entry) => describeWaitlistSource({ ...NONE, utm_source: entry.utm_source, utm_medium: entry.utm_medium, utm_campaign: entry.utm_campaign }))

/** By the referring site's host. */
export const byReferringSite = (entries: readonly WaitlistEntry[]) => groupBy(entries, (entry) => describeWaitlistSource({ ...NONE, referrer_host: entry.referrer_host }))

/** How many sources a table names; the rest is one row. */
export const TOP_SOURCES = 20

export type SourceTable = {
  /** The `top` largest groups that have a label. */
  top: SourceCount[]
  /** Every other labelled group summed, and how many distinct there are; null when none is left. */
  others: (Omit<SourceCount, 'label'> & { groups: number }) | null
  /** Entries with nothing recorded; null when there are none. */
  unrecorded: SourceCount | null
}

/**
 * The largest `top` groups, the rest as one "others" row, and the unrecorded ones. A campaign tag
 * or a referring host is whatever a visitor sends (50 sign-ups an hour per network), so a table of
 * all of them grows without bound: 3,000 made-up campaigns made an 828 kB page.
 */
export function topWithOthers(groups: readonly SourceCount[], top = TOP_SOURCES): SourceTable {
  const labelled = groups.filter((group) => group.label !== null)
  const rest = labelled.slice(top)
  return {
    top: labelled.slice(0, top),
    others: rest.length
      ? { groups: rest.length, signedUp: rest.reduce((sum, group) => sum + group.signedUp, 0), confirmed: rest.reduce((sum, group) => sum + group.confirmed, 0) }
      : null,
    unrecorded: groups.find((group) => group.label === null) ?? null,
  }
}
