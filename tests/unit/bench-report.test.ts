import { describe, expect, it } from 'vitest'
import { renderMarkdown, type BenchReport } from '../../tools/bench/bench-report'
import { measured } from './bench-fixtures'

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
    judgement: { judged: true, reason: 'CPU index 2500 against 2450 in the run of 2026-11-22 (+2.0 %), within 10.0 %', previous: { date: '2026-11-22', benchmarkIndex: 2450 } },
    targets: [],
    submit: { count: 60, median: 30, p95: 40, max: 100, first: 100 },
    ...overrides,
  }
}

describe('the benchmark report', () => {
  it("names the range of the site pages' HTML (the 404 left out) beside the floor's, and the simulated model's round trip", () => {
    const markdown = renderMarkdown(report({}))
    expect(markdown).toContain("the site's pages: 29.1 kB to 41.1 kB gzipped")
    expect(markdown).toContain("the floor: 1.8 kB")
    expect(markdown).toContain("which costs them 150 ms of the 130 ms that 1.2 × the floor's simulated LCP would leave above it in this run")
  })

  it('shows the floor\'s text pages with their LCP against the floor\'s', () => {
    const floor = measured({ lighthouse: { lcpMs: 650 } })
    const page = measured({ path: '/text/80', htmlGzip: 10_500, lighthouse: { fcpMs: 720, lcpMs: 1_440, lcpRuns: [960, 1_440, 1_450], tbtMs: 110, performanceRuns: [99, 99, 98] } })
    const markdown = renderMarkdown(report({ floorText: { floor, pages: [page] } }))
    expect(markdown).toContain('### The floor with words on it')
    expect(markdown).toContain('| /text/80 | 10.5 kB | 100 (99, 99, 98) | 0.72 s | 1.44 s | 2.22 × | 0.96 s, 1.44 s, 1.45 s | 110 ms |')
  })

  it('reports the variant page apart from control, in every table, and says how it was asked for', () => {
    const floor = measured({ htmlGzip: 1_800 })
    const control = measured({ path: '/', htmlGzip: 41_100, applied: { lcpElements: ['p.control'], warnings: [] } })
    const cookie = 'consent=granted; experiments=hero-headline=b'
    const variant = measured({ path: '/', htmlGzip: 41_200, variant: { experiment: 'hero-headline', key: 'b', cookie }, applied: { lcpElements: ['p.variant'] }, lighthouse: { warnings: ['a warning of the variant page'] } })
    const markdown = renderMarkdown(report({ routes: [{ site: control, floor, jsRatio: 1 }, { site: variant, floor, jsRatio: 1 }] }))
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
})
