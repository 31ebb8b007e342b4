import { describe, expect, it } from 'vitest'
import { renderMarkdown, type BenchReport } from '../../tools/bench/bench-report'
import { measured } from './bench-fixtures'
import type { LoadRun } from '../../tools/bench/server-load'

function report(overrides: Partial<BenchReport>): BenchReport {
  const floor = measured({ htmlGzip: 1_800, lighthouse: { lcpMs: 650 } })
  return {
    date: '2026-11-23T00:00:00.000Z',
    durationSeconds: 600,
    machine: { cores: 2, cpu: 'test', memoryGB: 24, os: 'Linux', node: 'v22', chromium: 'Chromium', lighthouse: '13', lighthouseBenchmarkIndex: 2500 },
    versions: { next: '16', react: '19', reactDom: '19' },
    buildSeconds: { site: 45, floor: 8 },
    settings: { lighthouseRuns: 5, lighthouse: '', analytics: '', firstLoadJs: '', requestsBeforeInteraction: '', thirdParty: '' },
    routes: [
      { site: measured({ path: '/', htmlGzip: 41_100 }), floor, jsRatio: 1 },
      { site: measured({ path: '/about', htmlGzip: 29_050 }), floor, jsRatio: 1 },
      // A 404's HTML is not a page of content: it stays out of the range the report names.
      { site: measured({ path: '/missing', status: 404, htmlGzip: 16_100 }), floor, jsRatio: 1 },
    ],
    floorText: { floor, pages: [] },
    styledFloor: measured({ path: '/styled', htmlGzip: 10_300, parts: { cssGzip: 8_500 }, applied: { lcpMs: 720 } }),
    server: null,
    machineLoad: { samples: 3, cores: 2, loadAverage: { min: 1.5, median: 2, max: 3.25 }, benchCores: 1.1, otherCores: 0.4 },
    judgement: {
      judged: true,
      reason: 'CPU index 2500 against 2450 in the run of 2026-11-22 (+2.0 %), within 10.0 %',
      previous: { date: '2026-11-22', benchmarkIndex: 2450 },
    },
    targets: [],
    submit: { count: 60, median: 30, p95: 40, max: 100, first: 100 },
    navigation: null,
    ...overrides,
  }
}

describe('the benchmark report', () => {
  it("names the range of the site pages' HTML (the 404 left out) beside the floor's, and the simulated model's round trip", () => {
    const markdown = renderMarkdown(report({}))
    expect(markdown).toContain("the site's pages: 29.1 kB to 41.1 kB gzipped")
    expect(markdown).toContain('the floor: 1.8 kB')
    expect(markdown).toContain("which costs them 150 ms of the 130 ms that 1.2 × the floor's simulated LCP would leave above it in this run")
  })

  it("shows the floor's text pages with their LCP against the floor's", () => {
    const floor = measured({ lighthouse: { lcpMs: 650 } })
    const page = measured({
      path: '/text/80',
      htmlGzip: 10_500,
      lighthouse: { fcpMs: 720, lcpMs: 1_440, lcpRuns: [960, 1_440, 1_450], tbtMs: 110, performanceRuns: [99, 99, 98] },
    })
    const markdown = renderMarkdown(report({ floorText: { floor, pages: [page] } }))
    expect(markdown).toContain('### The floor with words on it')
    expect(markdown).toContain('| /text/80 | 10.5 kB | 100 (99, 99, 98) | 0.72 s | 1.44 s | 2.22 × | 0.96 s, 1.44 s, 1.45 s | 110 ms |')
  })

  it('reports the variant page apart from control, in every table, and says how it was asked for', () => {
    const floor = measured({ htmlGzip: 1_800 })
    const control = measured({ path: '/', htmlGzip: 41_100, applied: { lcpElements: ['p.control'], warnings: [] } })
    const cookie = 'consent=granted; experiments=hero-headline=b'
    const variant = measured({
      path: '/',
      htmlGzip: 41_200,
      variant: { experiment: 'hero-headline', key: 'b', cookie },
      applied: { lcpElements: ['p.variant'] },
      lighthouse: { warnings: ['a warning of the variant page'] },
    })
    const markdown = renderMarkdown(
      report({
        routes: [
          { site: control, floor, jsRatio: 1 },
          { site: variant, floor, jsRatio: 1 },
        ],
      }),
    )
    // A row of its own in the weights, the HTML parts, both Lighthouse tables and the audits.
    expect(markdown).toContain('| / (variant b) | 200 | 100.0 kB | 100.0 kB | 1.000 × |')
    expect(markdown).toContain('| / (variant b) | 41.2 kB |')
    expect(markdown.match(/^\| \/ \(variant b\) \|/gm)).toHaveLength(4)
    expect(markdown).toContain('- / (variant b): `p.variant`')
    expect(markdown).toContain('**/ (variant b)** (floor: /)')
    // Its own page in the cross-check, though its URL is control's.
    expect(markdown).toContain('- http://localhost/ (variant b): a warning of the variant page')
    expect(markdown).toContain('`/ (variant b)` is `/` as a participant in variant `b` of the experiment `hero-headline` gets it')
    expect(markdown).toContain(`sends \`Cookie: ${cookie}\``)
    expect(markdown).toContain('the page still shows the consent banner and loads no analytics: the same conditions as control')
    expect(markdown).toContain("its first-load JS must be control's: the same scripts, byte for byte (control: 5 scripts, 100.0 kB; the variant: 5, 100.0 kB)")
    // Without a variant, none of it.
    expect(renderMarkdown(report({}))).not.toContain('variant')
  })

  it('reports the campaign page apart from control, asked for by its tags, its first-load JS held to control’s', () => {
    const floor = measured({ htmlGzip: 1_800 })
    const control = measured({ path: '/', htmlGzip: 41_100 })
    const campaign = measured({ path: '/', htmlGzip: 41_300, variant: { campaign: 'pm-linkedin-hero', query: '?utm_campaign=pm-linkedin' } })
    const markdown = renderMarkdown(
      report({
        routes: [
          { site: control, floor, jsRatio: 1 },
          { site: campaign, floor, jsRatio: 1 },
        ],
      }),
    )
    expect(markdown.match(/^\| \/ \(campaign pm-linkedin-hero\) \|/gm)).toHaveLength(4)
    expect(markdown).toContain(
      '`/ (campaign pm-linkedin-hero)` is `/` as a visitor from the campaign of the version `pm-linkedin-hero` gets it, at `/?utm_campaign=pm-linkedin`',
    )
    expect(markdown).toContain("asks for `/?utm_campaign=pm-linkedin` with a browser's user agent and no cookie")
    expect(markdown).toContain("its first-load JS must be control's: the same scripts, byte for byte (control: 5 scripts, 100.0 kB; the version: 5, 100.0 kB)")
    expect(markdown).not.toContain('Cookie: ')
  })

  it('says how busy the machine was: the load average and the CPU of the bench against every other process', () => {
    const markdown = renderMarkdown(report({}))
    expect(markdown).toContain('[bench-db.md](bench-db.md) (`npm run bench:db`)')
    expect(markdown).toContain(
      "How busy it was: 1-minute load average 1.5 to 3.25 (median 2) on 2 cores, 3 readings; on average the bench's own processes (servers, Chromium, the load tool) used 1.10 cores and other processes 0.40.",
    )
    const noProc = renderMarkdown(
      report({ machineLoad: { samples: 2, cores: 2, loadAverage: { min: 1, median: 1, max: 1 }, benchCores: null, otherCores: null } }),
    )
    expect(noProc).toContain('the CPU of other processes could not be read (no /proc)')
  })

  it('judges the targets when the CPU index held, and otherwise shows them as not judged, saying why', () => {
    const targets = [
      { route: '/', target: 'CLS 0', measured: '0.000', limit: '0', pass: true, gap: '—' },
      { route: '/', target: 'LCP ≤ 1.1 × styled floor (applied throttling)', measured: '1.20 ×', limit: '0.79 s', pass: false, gap: '0.07 s over' },
    ]
    const judged = renderMarkdown(report({ targets }))
    expect(judged).toContain('1 of 2 met. Compared with the last recorded run: CPU index 2500 against 2450 in the run of 2026-11-22 (+2.0 %), within 10.0 %.')
    expect(judged).toContain('| / | LCP ≤ 1.1 × styled floor (applied throttling) | 1.20 × | 0.79 s | **miss** | 0.07 s over |')
    const refused = renderMarkdown(
      report({
        targets,
        judgement: { judged: false, reason: 'CPU index 2000 against 2500 (-20.0 %): more than 10.0 %', previous: { date: '2026-11-22', benchmarkIndex: 2500 } },
      }),
    )
    expect(refused).toContain(
      '**Not judged**: CPU index 2000 against 2500 (-20.0 %): more than 10.0 %. The targets are shown as measured (1 of 2 would be met)',
    )
    expect(refused).toContain('| / | CLS 0 | 0.000 | 0 | not judged (pass) | — |')
    expect(refused).toContain('| not judged (miss) |')
    expect(refused).not.toContain('**miss**')
  })

  it('shows the styled floor beside the bare one under applied throttling, with each route against both', () => {
    const markdown = renderMarkdown(report({}))
    expect(markdown).toContain('| route | Perf | FCP | LCP | LCP × floor | LCP × styled floor | LCP runs (floor runs) | TBT |')
    expect(markdown).toContain('| / | 100 / 100 | 0.70 s / 0.70 s | 0.70 s / 0.65 s | 1.08 × | 0.97 × |')
    expect(markdown).toContain('| styled floor /styled | 100 / 100 | 0.70 s / 0.70 s | 0.72 s / 0.65 s | 1.11 × | 1.00 × |')
    expect(markdown).toContain("carrying the site's built stylesheet, inline, once (8.5 kB of CSS, gzipped, in 10.3 kB of HTML)")
    expect(markdown).toContain("Every route is held to 1.3 × its LCP; the bare floor's is reported beside it, not held.")
  })

  it('shows the navigation to /waitlist with and without the speculation rules, each run, and any run not prerendered', () => {
    const navigation = {
      runs: 2,
      withRules: { lcpAfterActivationMs: [14, 640], prerendered: [true, false] },
      withoutRules: { lcpAfterActivationMs: [880, 920], prerendered: [false, false] },
      medianWithMs: 327,
      medianWithoutMs: 900,
    }
    const markdown = renderMarkdown(report({ navigation }))
    expect(markdown).toContain('## The next page: home to /waitlist through the call to action')
    expect(markdown).toContain('| as shipped (`moderate`) | 327 ms | 14 ms, 640 ms (not prerendered) |')
    expect(markdown).toContain('| removed | 900 ms | 880 ms (not prerendered), 920 ms (not prerendered) |')
    expect(renderMarkdown(report({}))).not.toContain('## The next page')
  })

  it("has the server's table: each route and encoding, bypassed, the proxy's share and the floor page of the nearest size", () => {
    const run = (requestsPerSecond: number, p99Ms: number, errors = 0): LoadRun => ({
      url: '',
      encoding: 'identity',
      requestsPerSecond,
      p99Ms,
      meanMs: 0,
      bytesPerSecond: 0,
      requests: 0,
      statuses: {},
      errors,
    })
    const runs = { site: run(450.4, 190.2), bypassed: run(600, 120), floor: run(900, 60) }
    const server = {
      connections: 50,
      durationSeconds: 20,
      autocannon: '9.0.0',
      routes: [
        {
          route: '/',
          status: 200,
          bytes: 183_600,
          floor: { path: '/text/260', bytes: 178_000 },
          bypassPath: '/en',
          runs: { identity: runs, gzip: { ...runs, site: run(1_200, 80) } },
        },
        {
          route: '/missing',
          status: 404,
          bytes: 96_500,
          floor: { path: '/text/160', bytes: 110_000 },
          bypassPath: '/en/not-found/site',
          runs: { identity: runs, gzip: { ...runs, floor: run(900, 60, 3) } },
        },
      ],
    }
    const markdown = renderMarkdown(report({ server }))
    expect(markdown).toContain("## The server's own cost")
    expect(markdown).toContain('under autocannon 9.0.0: 50 connections for 20 s per address and encoding')
    expect(markdown).toContain('| / | identity | 183.6 kB | 450 | 190 ms | 600 (120 ms) at /en | 24.9 % | /text/260 (178.0 kB) | 900 (60 ms) | 0.50 × |')
    expect(markdown).toContain('| / | gzip | 183.6 kB | 1,200 | 80 ms | 600 (120 ms) at /en | -100.0 % | /text/260 (178.0 kB) | 900 (60 ms) | 1.33 × |')
    expect(markdown).toContain('| /missing (404) | identity | 96.5 kB |')
    expect(markdown).toContain('Connection errors: /missing gzip floor: 3 connection errors.')
    expect(renderMarkdown(report({}))).not.toContain("## The server's own cost")
  })
})
