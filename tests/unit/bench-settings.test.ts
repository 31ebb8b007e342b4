import { describe, expect, it } from 'vitest'
import { benchSettings, FULL_LIGHTHOUSE_RUNS } from '../../tools/bench/bench-settings'

describe('what one npm run bench measures', () => {
  it('measures everything by default, in full: the run that writes docs/bench.md', () => {
    expect(benchSettings([], {})).toEqual({
      quick: false,
      routes: undefined,
      lighthouseRuns: FULL_LIGHTHOUSE_RUNS,
      serverSeconds: 20,
      navigation: true,
      navigationRuns: 5,
      signups: 60,
      acceptCpuIndex: false,
      partial: false,
    })
  })

  it('--quick with a route: that route beside the floor, fewer runs, no navigation or sign-ups it does not touch, partial', () => {
    expect(benchSettings(['--quick', '/about'], {})).toMatchObject({
      quick: true,
      routes: ['/about'],
      lighthouseRuns: 1,
      serverSeconds: 5,
      navigation: false,
      signups: 0,
      partial: true,
    })
  })

  it('--quick alone measures the home page and its navigation; /waitlist adds the navigation and 10 sign-ups', () => {
    expect(benchSettings(['--quick'], {})).toMatchObject({ routes: ['/'], navigation: true, navigationRuns: 2, signups: 0 })
    expect(benchSettings(['--quick', '/waitlist', '/de'], {})).toMatchObject({ routes: ['/waitlist', '/de'], navigation: true, signups: 10 })
  })

  it('lets the variables set each figure, quick or not; any of them makes the run partial', () => {
    expect(benchSettings(['--quick', '/about'], { BENCH_LIGHTHOUSE_RUNS: '3', BENCH_SERVER_SECONDS: '0', BENCH_SIGNUPS: '50' })).toMatchObject({
      lighthouseRuns: 3,
      serverSeconds: 0,
      signups: 50,
    })
    expect(benchSettings([], { BENCH_ROUTES: '/, / (variant b)' })).toMatchObject({ routes: ['/', '/ (variant b)'], partial: true })
    expect(benchSettings([], { BENCH_NAVIGATION: '0' })).toMatchObject({ navigation: false, partial: true })
    expect(benchSettings([], { BENCH_ACCEPT_CPU_INDEX: '1' })).toMatchObject({ acceptCpuIndex: true, partial: false })
  })

  it('refuses routes without --quick, and figures that are not numbers', () => {
    expect(() => benchSettings(['/about'], {})).toThrow('Routes are named only with --quick')
    expect(() => benchSettings([], { BENCH_LIGHTHOUSE_RUNS: '0' })).toThrow('BENCH_LIGHTHOUSE_RUNS must be a whole number from 1')
    expect(() => benchSettings([], { BENCH_SERVER_SECONDS: 'ten' })).toThrow('BENCH_SERVER_SECONDS must be a number of seconds')
    expect(() => benchSettings([], { BENCH_SIGNUPS: '-1' })).toThrow('BENCH_SIGNUPS must be a whole number')
  })
})
