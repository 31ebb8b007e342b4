/**
 * The founders' experiment and campaign results. Per experiment and variant, the sign-ups the database
 * recorded, their confirmations, the confirmation rate with its 95 % interval, and, when PostHog's
 * query API is configured, the participants (people exposed to the variant) and the sign-up rate.
 * Per campaign version (issue #55), the sign-ups it was shown to and their confirmation rate.
 *
 * The interval is Wilson's score interval (Wilson 1927): unlike the textbook Wald interval
 * p ± z·√(p(1−p)/n) it stays within 0–100 %, is not zero-width at 0 or n successes, and keeps
 * close to its 95 % coverage for the small counts an early experiment has (Brown, Cai and DasGupta,
 * "Interval Estimation for a Binomial Proportion", Statistical Science 2001, recommend it for
 * n < 40 and beyond). Checked against Newcombe's published table (tests/unit/experiments-data-results.test.ts).
 */
import { CONTROL_VARIANT } from '@/sanity/variants/assignments'

/** The two-sided 95 % quantile of the standard normal distribution. */
const Z95 = 1.959963984540054

export type Interval = { low: number; high: number }

/** Wilson's score interval for `successes` out of `trials`; null when there are no trials. */
export function wilsonInterval(successes: number, trials: number, z = Z95): Interval | null {
  if (!Number.isInteger(trials) || trials <= 0 || !Number.isInteger(successes) || successes < 0 || successes > trials) return null
  const p = successes / trials
  const z2 = z * z
  const denominator = 1 + z2 / trials
  const center = (p + z2 / (2 * trials)) / denominator
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))
  // At 0 or n successes the bound is exactly 0 or 1; floating point would leave 1e-17.
  return { low: successes === 0 ? 0 : Math.max(0, center - half), high: successes === trials ? 1 : Math.min(1, center + half) }
}

/** One row of public.waitlist_experiment_results(). */
export type VariantCounts = { experiment: string; variant: string; signups: number; confirmations: number }

/** PostHog's distinct participants: experiment key -> variant key -> people. */
export type Participants = ReadonlyMap<string, ReadonlyMap<string, number>>

export type Rate = { rate: number; interval: Interval }

export type VariantResult = {
  variant: string
  /** People PostHog saw exposed to it; null when PostHog is not configured. */
  participants: number | null
  signups: number
  confirmations: number
  /** Confirmations of sign-ups; null without sign-ups. */
  confirmation: Rate | null
  /** Sign-ups of participants; null without PostHog or participants. */
  signup: Rate | null
}

export type ExperimentResult = { experiment: string; variants: VariantResult[] }

function rate(successes: number, trials: number): Rate | null {
  const interval = wilsonInterval(successes, trials)
  return interval ? { rate: successes / trials, interval } : null
}

/** Control first, then the variants by key; an experiment PostHog knows with no sign-up yet is shown too. */
export function experimentResults(counts: readonly VariantCounts[], participants: Participants | null): ExperimentResult[] {
  const experiments = new Map<string, Map<string, { signups: number; confirmations: number }>>()
  const variantsOf = (experiment: string) => experiments.get(experiment) ?? experiments.set(experiment, new Map()).get(experiment)!
  for (const row of counts) variantsOf(row.experiment).set(row.variant, { signups: row.signups, confirmations: row.confirmations })
  for (const [experiment, variants] of participants ?? []) {
    for (const variant of variants.keys()) if (!variantsOf(experiment).has(variant)) variantsOf(experiment).set(variant, { signups: 0, confirmations: 0 })
  }
  const order = (a: string, b: string) => (a === CONTROL_VARIANT ? -1 : b === CONTROL_VARIANT ? 1 : a.localeCompare(b))
  return [...experiments.keys()].sort().map((experiment) => ({
    experiment,
    variants: [...experiments.get(experiment)!]
      .sort(([a], [b]) => order(a, b))
      .map(([variant, { signups, confirmations }]) => {
        const seen = participants ? (participants.get(experiment)?.get(variant) ?? 0) : null
        return {
          variant,
          participants: seen,
          signups,
          confirmations,
          confirmation: rate(confirmations, signups),
          // More sign-ups than participants (people who signed up before PostHog saw them, or
          // blocked it) is no rate at all.
          signup: seen !== null && signups <= seen ? rate(signups, seen) : null,
        }
      }),
  }))
}

/** "12.5 % (8.1–18.9 %)". */
export function formatRate(value: Rate | null): string {
  if (!value) return '–'
  const percent = (x: number) => (x * 100).toFixed(1)
  return `${percent(value.rate)} % (${percent(value.interval.low)}–${percent(value.interval.high)} %)`
}

/** One row of public.waitlist_campaign_results(): `campaign` null counts the sign-ups no campaign version was shown to. */
export type CampaignCounts = { campaign: string | null; signups: number; confirmations: number }

export type CampaignResult = CampaignCounts & { confirmation: Rate | null }

/** The campaign versions by key, then the sign-ups no version was shown to: the figure each is compared with. */
export function campaignResults(counts: readonly CampaignCounts[]): CampaignResult[] {
  const byKey = (a: CampaignCounts, b: CampaignCounts) => (a.campaign === null ? 1 : b.campaign === null ? -1 : a.campaign.localeCompare(b.campaign))
  return [...counts].sort(byKey).map((row) => ({ ...row, confirmation: rate(row.confirmations, row.signups) }))
}
