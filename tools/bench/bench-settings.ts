import { FULL_SERVER_SECONDS } from './server-load'
import { NAVIGATION_RUNS } from './prerender-navigation'

/**
 * What one `npm run bench` measures, from its arguments and BENCH_* variables.
 *
 * `npm run bench -- --quick [route…]` is the quick form, for a change to one page, in under ten
 * minutes: the named routes (labels as the report prints them; `/` when none) beside the floor,
 * one Lighthouse run per throttling method, 5 s of server load on those of the server table's
 * routes named, the navigation from `/` twice each way when `/` or /waitlist is named, 10 sign-ups
 * when /waitlist is. A run that measures less than the full one is partial: its report goes to
 * .local/bench/, and only the full run, for a release, writes docs/bench.md. The variables still
 * set each figure, quick or not.
 */
export type BenchSettings = {
  quick: boolean
  /** Route labels to measure; every route when undefined. */
  routes: string[] | undefined
  lighthouseRuns: number
  /** Seconds of load per address and encoding in the server table (0 leaves the table out). */
  serverSeconds: number
  navigation: boolean
  navigationRuns: number
  signups: number
  acceptCpuIndex: boolean
  partial: boolean
}

export const FULL_LIGHTHOUSE_RUNS = 5
// 60 sign-ups take about 2.5 min (each waits out the form's minimum fill time); the team asked for at least 50.
const FULL_SIGNUPS = 60
const QUICK = { lighthouseRuns: 1, serverSeconds: 5, navigationRuns: 2, signups: 10 }

export function benchSettings(args: readonly string[], env: Readonly<Record<string, string | undefined>>): BenchSettings {
  const quick = args.includes('--quick')
  const named = args.filter((arg) => arg !== '--quick')
  if (!quick && named.length > 0) throw new Error(`Routes are named only with --quick: npm run bench -- --quick ${named.join(' ')}`)
  const quickRoutes = named.length > 0 ? named : ['/']
  const quickNames = (...paths: string[]) => quick && paths.some((path) => quickRoutes.includes(path))

  const lighthouseRuns = Number(env.BENCH_LIGHTHOUSE_RUNS ?? (quick ? QUICK.lighthouseRuns : FULL_LIGHTHOUSE_RUNS))
  if (!Number.isInteger(lighthouseRuns) || lighthouseRuns < 1)
    throw new Error(`BENCH_LIGHTHOUSE_RUNS must be a whole number from 1, not "${env.BENCH_LIGHTHOUSE_RUNS}"`)
  const serverSeconds = Number(env.BENCH_SERVER_SECONDS ?? (quick ? QUICK.serverSeconds : FULL_SERVER_SECONDS))
  if (!Number.isFinite(serverSeconds) || serverSeconds < 0)
    throw new Error(`BENCH_SERVER_SECONDS must be a number of seconds, not "${env.BENCH_SERVER_SECONDS}"`)
  const signups = Number(env.BENCH_SIGNUPS ?? (!quick ? FULL_SIGNUPS : quickNames('/waitlist') ? QUICK.signups : 0))
  if (!Number.isInteger(signups) || signups < 0) throw new Error(`BENCH_SIGNUPS must be a whole number, not "${env.BENCH_SIGNUPS}"`)
  // BENCH_NAVIGATION=0 leaves out the home page → /waitlist navigation, with and without prerendering.
  const navigation = env.BENCH_NAVIGATION !== '0' && (!quick || quickNames('/', '/waitlist'))
  // BENCH_ROUTES: labels, comma-separated (`/,/ (variant b)`).
  const routes = env.BENCH_ROUTES?.split(',').map((label) => label.trim()) ?? (quick ? quickRoutes : undefined)
  return {
    quick,
    routes,
    lighthouseRuns,
    serverSeconds,
    navigation,
    navigationRuns: quick ? QUICK.navigationRuns : NAVIGATION_RUNS,
    signups,
    // BENCH_ACCEPT_CPU_INDEX=1 judges a run whose CPU index moved from the last recorded one, and records it as the new reference.
    acceptCpuIndex: env.BENCH_ACCEPT_CPU_INDEX === '1',
    partial: quick || routes !== undefined || lighthouseRuns !== FULL_LIGHTHOUSE_RUNS || serverSeconds !== FULL_SERVER_SECONDS || !navigation,
  }
}
