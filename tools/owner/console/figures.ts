/**
 * The console's figures from what the database counted (tools/owner/owner.ts: fetchFigures,
 * the funnel included): pure functions, so the page and its tests share one arithmetic. Every figure
 * counts the entries still in the list: an erased person, or an unconfirmed sign-up purged after
 * its week, is in none of them.
 */
import { utcDay, type Funnel, type WaitlistFigures } from '../owner'

export type FunnelStep = {
  label: string
  count: number
  /** Share of the step before; null for the first step or when that step is empty. */ rate: number | null
  of: string | null
}

/** Signed up → confirmed → invited → joined, each with its share of the step before. */
export function funnelSteps(funnel: Funnel): FunnelStep[] {
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
export function perDay({ signupDays, confirmationDays }: Pick<WaitlistFigures, 'signupDays' | 'confirmationDays'>, now: Date, days = 30): DayCount[] {
  const firstSignUp = signupDays[0]?.day
  if (firstSignUp === undefined) return []
  const today = utcDay(now.toISOString())
  const windowStart = utcDay(new Date(now.getTime() - (days - 1) * DAY_MS).toISOString())
  const series = new Map<string, DayCount>()
  for (let time = Date.parse(`${firstSignUp > windowStart ? firstSignUp : windowStart}T00:00:00Z`); ; time += DAY_MS) {
    const day = new Date(time).toISOString().slice(0, 10)
    if (day > today) break
    series.set(day, { day, signUps: 0, confirmations: 0 })
  }
  for (const { day, signedUp } of signupDays) {
    const counts = series.get(day)
    if (counts) counts.signUps = signedUp
  }
  for (const { day, confirmed } of confirmationDays) {
    const counts = series.get(day)
    if (counts) counts.confirmations = confirmed
  }
  return [...series.values()]
}

/**
 * How many sources a table names; the rest is one row. A campaign tag or a referring host is
 * whatever a visitor sends (50 sign-ups an hour per network), so a table of all of them grows
 * without bound: 3,000 made-up campaigns made an 828 kB page.
 */
export const TOP_SOURCES = 20
