import type { NavigationReport } from './prerender-navigation'
import type { FloorVersions } from './floor-app'
import { CATEGORIES, type CategoryId } from './lighthouse'
import { kB } from './page-weight'
import { controlOf, LCP_BUDGET_STYLED, routeLabel, type Judgement, type Measured, type MeasuredVariant, type TargetResult } from './quality-budget'
import type { MachineLoad } from './machine-load'
import { ENCODINGS, proxyShare, type ServerReport } from './server-load'
import { BENCH_SEED_PATH } from './bench-content'

/** Everything `npm run bench` measured: written as docs/bench.json and rendered as docs/bench.md. */
export type BenchReport = {
  date: string
  durationSeconds: number
  machine: { cores: number; cpu: string; memoryGB: number; os: string; node: string; chromium: string; lighthouse: string; lighthouseBenchmarkIndex: number }
  versions: FloorVersions
  buildSeconds: { site: number; floor: number }
  settings: { lighthouseRuns: number; lighthouse: string; analytics: string; firstLoadJs: string; requestsBeforeInteraction: string; thirdParty: string }
  routes: { site: Measured; floor: Measured; jsRatio: number }[]
  /** The floor's plain-text pages beside the floor's `/`: no target, a reference (floor-app.ts). */
  floorText: { floor: Measured; pages: Measured[] }
  /** The floor's page carrying the site's stylesheet, inline, once (floor-app.ts): the LCP targets' second reference. */
  styledFloor: Measured
  /** Requests per second and p99 of the server (null when BENCH_SERVER_SECONDS=0 left it out). */
  server: ServerReport | null
  /** How busy the machine was during the run. */
  machineLoad: MachineLoad
  /** Whether the targets were judged: not when the CPU index moved too far from the run compared with. */
  judgement: Judgement
  targets: TargetResult[]
  /** Null in a quick run that leaves /waitlist out. */
  submit: { count: number; median: number; p95: number; max: number; first: number } | null
  /** The home page's call to action to /waitlist, with and without the speculation rules (null in a partial run without it). */
  navigation: NavigationReport | null
}

const ms = (value: number) => `${Math.round(value)} ms`
const s = (value: number) => `${(value / 1000).toFixed(2)} s`
const SHORT: Record<CategoryId, string> = { performance: 'Perf', accessibility: 'A11y', 'best-practices': 'BP', seo: 'SEO' }
// Audits that hold a category below 100 first; the performance ones are partly noise and partly the framework's.
const AUDIT_ORDER: CategoryId[] = ['accessibility', 'best-practices', 'seo', 'performance']

/** The scale bench writes its own report (tools/bench/db/report.ts); this one only points at it. */
export const DB_REPORT_LINK =
  "The waitlist's database at 10,000, 100,000 and 1,000,000 entries has its own report: [bench-db.md](bench-db.md) (`npm run bench:db`)."

export function renderMarkdown(report: BenchReport): string {
  const { machine, versions } = report
  const lines: string[] = []
  const table = (head: string[], rows: string[][]) => {
    lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`), '')
  }

  lines.push(
    '# Benchmark',
    '',
    `${report.date}: \`npm run bench\` (${(report.durationSeconds / 60).toFixed(1)} min in all). The site's production build on the embedded defaults beside the **floor**, a bare Next.js App Router page (a heading and a paragraph, no client component) built with the same next ${versions.next}, react ${versions.react} and react-dom ${versions.reactDom}. Builds: site ${report.buildSeconds.site.toFixed(0)} s, floor ${report.buildSeconds.floor.toFixed(0)} s.`,
    '',
    `Machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGB} GB, ${machine.os}; Node ${machine.node}; ${machine.chromium}; Lighthouse ${machine.lighthouse} (CPU benchmark index, median of all runs: ${Math.round(machine.lighthouseBenchmarkIndex)}; per page below).`,
    '',
    `How busy it was: ${busy(report.machineLoad)}.`,
    '',
    DB_REPORT_LINK,
    '',
    '## Site and floor per route',
    '',
    [
      "Weights are gzip bytes. The floor of each page is the floor's `/`; the floor of the 404 is the floor's own 404 (Next's built-in page).",
      ...report.routes.flatMap(({ site }) =>
        site.variant
          ? [
              'campaign' in site.variant
                ? `\`${routeLabel(site)}\` is \`${site.path}\` as a visitor from the campaign of the version \`${site.variant.campaign}\` gets it, at \`${site.path}${site.variant.query}\` ("How it is measured" below).`
                : `\`${routeLabel(site)}\` is \`${site.path}\` as a participant in variant \`${site.variant.key}\` of the experiment \`${site.variant.experiment}\` gets it ("How it is measured" below).`,
            ]
          : [],
      ),
    ].join(' '),
    '',
  )
  table(
    [
      'route',
      'status',
      'first-load JS',
      'floor JS',
      '× floor',
      'scripts (floor)',
      'CSS linked / inline',
      'HTML (floor)',
      'requests before load (floor)',
      'requests, no interaction (floor)',
      'third-party before consent',
    ],
    report.routes.map(({ site, floor, jsRatio }) => [
      routeLabel(site),
      String(site.status),
      kB(site.js.jsGzip),
      kB(floor.js.jsGzip),
      `${jsRatio.toFixed(3)} ×`,
      `${site.js.scripts} (${floor.js.scripts})`,
      `${kB(site.cssGzip)} / ${kB(site.inlineCssGzip)}`,
      `${kB(site.htmlGzip)} (${kB(floor.htmlGzip)})`,
      `${site.lighthouse.requestsBeforeLoad} (${floor.lighthouse.requestsBeforeLoad})`,
      `${site.lighthouse.requestsTotal} (${floor.lighthouse.requestsTotal})`,
      site.lighthouse.otherOrigins.length === 0 ? 'none' : site.lighthouse.otherOrigins.join(', '),
    ]),
  )

  lines.push(
    '### HTML by part',
    '',
    "Each part gzipped on its own (so the parts add up to a little more than the whole): markup (elements, words, attributes, small inline scripts), CSS (the `<style>` elements) and flight data (the RSC payload React hydrates from, Next's inline `self.__next_f.push` scripts). Beside them, how much of the gzipped document comes before `<body>` and before the first `<h1>`: under applied throttling the browser paints as the bytes arrive.",
    '',
  )
  const floors = [
    ...new Map([...report.routes.map(({ floor }) => floor), report.floorText.floor, ...report.floorText.pages].map((page) => [page.path, page])).values(),
  ]
  table(
    ['page', 'HTML', 'markup', 'CSS', 'flight data', 'before `<body>`', 'before `<h1>`'],
    [...report.routes.map(({ site }) => ({ label: routeLabel(site), page: site })), ...floors.map((page) => ({ label: `floor ${page.path}`, page }))].map(
      ({ label, page }) => [
        label,
        kB(page.htmlGzip),
        kB(page.parts.markupGzip),
        kB(page.parts.cssGzip),
        kB(page.parts.flightGzip),
        kB(page.parts.beforeBodyGzip),
        page.parts.beforeH1Gzip === null ? 'no `<h1>`' : kB(page.parts.beforeH1Gzip),
      ],
    ),
  )

  lines.push(
    `### Lighthouse, mobile, applied throttling (median of ${report.settings.lighthouseRuns} runs; site / floor)`,
    '',
    "Chromium itself slows the network and the CPU while the page loads (Lighthouse's `devtools` method), so the figures are observed, not estimated: the targets below hold these.",
    '',
  )
  const styled = report.styledFloor.applied
  table(
    ['route', 'Perf', 'FCP', 'LCP', 'LCP × floor', 'LCP × styled floor', 'LCP runs (floor runs)', 'TBT'],
    [
      ...report.routes.map(({ site, floor }) => [
        routeLabel(site),
        `${site.applied.scores.performance} / ${floor.applied.scores.performance}`,
        `${s(site.applied.fcpMs)} / ${s(floor.applied.fcpMs)}`,
        `${s(site.applied.lcpMs)} / ${s(floor.applied.lcpMs)}`,
        `${(site.applied.lcpMs / floor.applied.lcpMs).toFixed(2)} ×`,
        `${(site.applied.lcpMs / styled.lcpMs).toFixed(2)} ×`,
        `${site.applied.lcpRuns.map(s).join(', ')} (${floor.applied.lcpRuns.map(s).join(', ')})`,
        `${ms(site.applied.tbtMs)} / ${ms(floor.applied.tbtMs)}`,
      ]),
      ...[report.styledFloor, ...report.floorText.pages].map((page) => {
        const floor = report.floorText.floor.applied
        const name = page === report.styledFloor ? `styled floor ${page.path}` : `floor ${page.path} (no target)`
        return [
          name,
          `${page.applied.scores.performance} / ${floor.scores.performance}`,
          `${s(page.applied.fcpMs)} / ${s(floor.fcpMs)}`,
          `${s(page.applied.lcpMs)} / ${s(floor.lcpMs)}`,
          `${(page.applied.lcpMs / floor.lcpMs).toFixed(2)} ×`,
          `${(page.applied.lcpMs / styled.lcpMs).toFixed(2)} ×`,
          `${page.applied.lcpRuns.map(s).join(', ')} (${floor.lcpRuns.map(s).join(', ')})`,
          `${ms(page.applied.tbtMs)} / ${ms(floor.tbtMs)}`,
        ]
      }),
    ],
  )
  lines.push(
    `The styled floor is the floor's page carrying the site's built stylesheet, inline, once (${kB(report.styledFloor.parts.cssGzip)} of CSS, gzipped, in ${kB(report.styledFloor.htmlGzip)} of HTML): what styled text costs before any component of ours. Every route is held to ${LCP_BUDGET_STYLED} × its LCP; the bare floor's is reported beside it, not held.`,
    '',
  )

  lines.push(
    `### Lighthouse, mobile, simulated throttling (median of ${report.settings.lighthouseRuns} runs; site / floor)`,
    '',
    'Lighthouse\'s default (PageSpeed Insights\' mobile scores): an unthrottled load, timings estimated from it. Reported, not held to a target (see "What decides the simulated LCP" below).',
    '',
  )
  table(
    ['route', ...CATEGORIES.map((id) => SHORT[id]), 'Perf runs (floor runs)', 'FCP', 'LCP', 'LCP runs (floor runs)', 'CLS', 'TBT', 'CPU index of runs (floor)'],
    report.routes.map(({ site, floor }) => [
      routeLabel(site),
      ...CATEGORIES.map((id) => `${site.lighthouse.scores[id]} / ${floor.lighthouse.scores[id]}`),
      `${site.lighthouse.performanceRuns.join(', ')} (${floor.lighthouse.performanceRuns.join(', ')})`,
      `${s(site.lighthouse.fcpMs)} / ${s(floor.lighthouse.fcpMs)}`,
      `${s(site.lighthouse.lcpMs)} / ${s(floor.lighthouse.lcpMs)}`,
      `${site.lighthouse.lcpRuns.map(s).join(', ')} (${floor.lighthouse.lcpRuns.map(s).join(', ')})`,
      `${site.lighthouse.cls.toFixed(3)} / ${floor.lighthouse.cls.toFixed(3)}`,
      `${ms(site.lighthouse.tbtMs)} / ${ms(floor.lighthouse.tbtMs)}`,
      `${site.lighthouse.benchmarkIndexRuns.join(', ')} (${floor.lighthouse.benchmarkIndexRuns.join(', ')})`,
    ]),
  )

  lines.push(
    '### The floor with words on it',
    '',
    "The same bare Next.js app also serves pages of plain text (an `h1`, a lead paragraph, then sections of an `h2` and a 60-word paragraph; no CSS, no font, no client component), measured in the same rounds (their applied figures are in the applied table above). They are no target; they show what the framework alone does to Lighthouse's simulated LCP once a page carries text.",
    '',
  )
  table(
    ['page', 'HTML', 'Perf (runs)', 'FCP', 'LCP', 'LCP × floor /', 'LCP runs', 'TBT'],
    report.floorText.pages.map((page) => [
      page.path,
      kB(page.htmlGzip),
      `${page.lighthouse.scores.performance} (${page.lighthouse.performanceRuns.join(', ')})`,
      s(page.lighthouse.fcpMs),
      s(page.lighthouse.lcpMs),
      `${(page.lighthouse.lcpMs / report.floorText.floor.lighthouse.lcpMs).toFixed(2)} ×`,
      page.lighthouse.lcpRuns.map(s).join(', '),
      ms(page.lighthouse.tbtMs),
    ]),
  )

  lines.push("Largest contentful paint element (Lighthouse's LCP insight, every run, applied throttling):", '')
  for (const { site } of report.routes) lines.push(`- ${routeLabel(site)}: ${site.applied.lcpElements.map((element) => `\`${element}\``).join(' or ')}`)
  lines.push('')

  if (report.server) serverSection(report.server, lines, table)

  const misses = report.targets.filter((target) => !target.pass)
  const { judgement } = report
  lines.push(
    '## Targets',
    '',
    judgement.judged
      ? `${report.targets.length - misses.length} of ${report.targets.length} met. Compared with the last recorded run: ${judgement.reason}.`
      : `**Not judged**: ${judgement.reason}. The targets are shown as measured (${report.targets.length - misses.length} of ${report.targets.length} would be met) and this run is not recorded over docs/bench.md; run again on a machine like the last one, or set BENCH_ACCEPT_CPU_INDEX=1 to take this one as the new reference.`,
    '',
  )
  const verdict = (pass: boolean) => (judgement.judged ? (pass ? 'pass' : '**miss**') : pass ? 'not judged (pass)' : 'not judged (miss)')
  table(
    ['route', 'target', 'measured', 'limit', 'result', 'gap'],
    report.targets.map((t) => [t.route, t.target, t.measured, t.limit, verdict(t.pass), t.gap]),
  )
  lines.push(criticalPath(report), '')

  lines.push(
    '## Failing Lighthouse audits',
    '',
    'Every audit Lighthouse scores below 0.9 (its own pass line; binary audits score 0 or 1) in any run, per route. "floor too" marks audits the bare Next.js page fails the same way. Informative audits (such as missing source maps) are not listed.',
    '',
  )
  for (const { site, floor } of report.routes) {
    const floorFails = new Set(floor.lighthouse.failingAudits.map((audit) => `${audit.category}/${audit.id}`))
    lines.push(`**${routeLabel(site)}** (floor: ${floor.path})`, '')
    if (site.lighthouse.failingAudits.length === 0) lines.push('- none', '')
    else {
      for (const audit of [...site.lighthouse.failingAudits].sort((a, b) => AUDIT_ORDER.indexOf(a.category) - AUDIT_ORDER.indexOf(b.category))) {
        const extra = [
          `${audit.failedRuns}/${site.lighthouse.runs} runs`,
          audit.displayValue,
          floorFails.has(`${audit.category}/${audit.id}`) ? 'floor too' : undefined,
        ]
          .filter(Boolean)
          .join(', ')
        lines.push(`- ${SHORT[audit.category]}: \`${audit.id}\`: ${audit.title} (${extra})`)
      }
      lines.push('')
    }
  }
  const floorRoutes = [...new Map(report.routes.map(({ floor }) => [floor.path, floor])).values()]
  for (const floor of floorRoutes) {
    lines.push(
      `Floor ${floor.path}: ${floor.lighthouse.failingAudits.length === 0 ? 'none' : floor.lighthouse.failingAudits.map((audit) => `\`${audit.id}\``).join(', ')}`,
      '',
    )
  }

  if (report.submit) {
    const { submit } = report
    lines.push('## Waitlist submit latency', '')
    lines.push(
      `${submit.count} sign-ups${submit.count < 50 ? ' (fewer than the 50 the team asked for: a quick run, or BENCH_SIGNUPS set lower)' : ''}, click to confirmation, in Chromium against the local backend: median ${submit.median} ms, p95 ${submit.p95} ms, max ${submit.max} ms (first submit of the session, which downloads the database client: ${submit.first} ms).`,
      '',
    )
  }

  if (report.navigation) {
    const { navigation } = report
    const runs = (r: NavigationReport['withRules']) =>
      r.lcpAfterActivationMs.map((value, i) => `${value} ms${r.prerendered[i] ? '' : ' (not prerendered)'}`).join(', ')
    lines.push('## The next page: home to /waitlist through the call to action', '')
    lines.push(
      `Once the home page has hydrated, the hero's "Start Free Trial" hovered, then pressed: with the rules once Chromium's prerender has settled (tools/local/prerender-watch.ts), as a pointer rests a moment before a click, without them (the rule set taken out) after 200 ms; Puppeteer's Chromium under Lighthouse's slow 4G and 4 × CPU, a fresh browser per run, ${navigation.runs} runs each way, alternating (tools/bench/prerender-navigation.ts). The figure is /waitlist's LCP after activation (its LCP minus \`activationStart\`, for a plain load from the navigation's start).`,
      '',
      '| speculation rules | median LCP after activation | runs |',
      '|---|---|---|',
      `| as shipped (\`moderate\`) | ${navigation.medianWithMs} ms | ${runs(navigation.withRules)} |`,
      `| removed | ${navigation.medianWithoutMs} ms | ${runs(navigation.withoutRules)} |`,
      '',
    )
  }

  // Each page once (the floors repeat); the variant page has control's URL and is a page of its own.
  const pageName = (m: Measured) => `${new URL(m.lighthouse.url).origin}${routeLabel(m)}`
  const crossCheck = report.routes
    .flatMap(({ site, floor }) => [site, floor])
    .filter((m, i, all) => all.findIndex((other) => pageName(other) === pageName(m)) === i)
  const mismatches = crossCheck.filter((m) => m.js.htmlOnly.length > 0 || m.js.browserOnly.length > 0)
  lines.push(
    '## How it is measured',
    '',
    `- **First-load JS**: ${report.settings.firstLoadJs} Cross-check in this run: ${
      mismatches.length === 0
        ? 'for every page, site and floor, the scripts named in the HTML are exactly the scripts Chromium requested before `load`.'
        : mismatches
            .map((m) => `${pageName(m)}: only in HTML ${m.js.htmlOnly.join(', ') || 'none'}; only fetched by Chromium ${m.js.browserOnly.join(', ') || 'none'}`)
            .join('; ')
    }`,
    `- **Requests before interaction**: ${report.settings.requestsBeforeInteraction}`,
    `- **Third-party requests before consent**: ${report.settings.thirdParty}`,
    `- **Lighthouse**: ${report.settings.lighthouse}`,
    `- **Analytics**: ${report.settings.analytics} Same-origin analytics requests (\`/ingest\`) before consent: ${
      crossCheck.some((m) => m.lighthouse.analyticsCalls.length > 0) ? crossCheck.flatMap((m) => m.lighthouse.analyticsCalls).join(', ') : 'none'
    }.`,
    '- CSS and HTML: gzip of the stylesheets the HTML links, of the `<style>` elements in the HTML (inlined CSS, also part of the HTML figure) and of the HTML document, and the HTML by part (`htmlParts` in `tools/bench/page-weight.ts`).',
    "- The floor is generated into `.local/bench-floor/` (`tools/bench/floor-app.ts`), its `node_modules` a symlink to the project's, built with the project's `next` and served by `next start` on port 3301; the site is built into `.next-bench` and served on port 3300 (both plus `BENCH_PORT_OFFSET`, or else `E2E_PORT_OFFSET`, when set).",
    ...report.routes.flatMap(({ site }) =>
      site.variant ? [`- **${routeLabel(site)}**: ${variantMethod(site.variant, site, controlOf(report.routes, site))}`] : [],
    ),
    '- Knobs: `BENCH_SIGNUPS` (default 60, at least 50 wanted), `BENCH_POSTHOG_KEY` (empty: build without analytics), `BENCH_PORT_OFFSET`, `BENCH_ACCEPT_CPU_INDEX=1` (judge a run whose CPU index moved over 10 % and record it as the new reference); for a quick try of the bench itself, `BENCH_ROUTES` (route labels, comma-separated), `BENCH_LIGHTHOUSE_RUNS` and `BENCH_SERVER_SECONDS` (0 leaves the server table out), which write their report to `.local/bench/` instead. The command exits 1 when any target is missed, 3 when it refused to judge.',
    '',
  )
  const warnings = crossCheck.flatMap((m) => m.lighthouse.warnings.map((warning) => `- ${pageName(m)}: ${warning}`))
  if (warnings.length > 0)
    lines.push('Lighthouse warnings (on a 404 page the status warning is expected: the page answers 404 on purpose):', '', ...warnings, '')
  return lines.join('\n')
}

/** The load average's spread and the cores' worth used by the bench and by everything else. */
export function busy(load: MachineLoad): string {
  const average = `1-minute load average ${load.loadAverage.min} to ${load.loadAverage.max} (median ${load.loadAverage.median}) on ${load.cores} cores, ${load.samples} readings`
  if (load.benchCores === null || load.otherCores === null) return `${average}; the CPU of other processes could not be read (no /proc)`
  return `${average}; on average the bench's own processes (servers, Chromium, the load tool) used ${load.benchCores.toFixed(2)} cores and other processes ${load.otherCores.toFixed(2)}`
}

const perSecond = (value: number) => Math.round(value).toLocaleString('en-US')

function serverSection(server: ServerReport, lines: string[], table: (head: string[], rows: string[][]) => void): void {
  lines.push(
    "## The server's own cost",
    '',
    `\`next start\` of each build on the embedded defaults under autocannon ${server.autocannon}: ${server.connections} connections for ${server.durationSeconds} s per address and encoding, the load tool on the same cores as the servers. \`identity\` sends no \`Accept-Encoding\` (no compression); \`gzip\` asks for it. Every request sends what a browser's first navigation sends (\`Sec-Fetch-Dest: document\`, \`Sec-Fetch-Mode: navigate\`, an HTML \`Accept\`, no cookie), so English's fixed pages (\`/\`, \`/about\`, …) are served without running the proxy, as a first visit is (docs/engineers.md, "Requests the proxy skips"), and every other route through it. Each route beside the floor's text page of the nearest uncompressed size, served the same way. **Bypassed** is the same route on a second server of the same build whose proxy matches nothing (its middleware manifest's matcher emptied), asked for at the address the proxy would rewrite it to: the difference is the proxy's whole cost, Next's running of it included (for a skipped route, only the rewrite in next.config.ts that takes its place). With the server saturated its time per request is 1 / (requests per second), so the proxy's share is 1 − rps / rps bypassed; one run each on a shared machine, so a few percent either way is noise.`,
    '',
  )
  table(
    ['route', 'encoding', 'HTML', 'req/s', 'p99', 'bypassed req/s (p99)', 'proxy share', 'floor page (HTML)', 'floor req/s (p99)', '× floor'],
    server.routes.flatMap((route) =>
      ENCODINGS.map((encoding) => {
        const { site, bypassed, floor } = route.runs[encoding]
        return [
          `${route.route}${route.status === 200 ? '' : ` (${route.status})`}`,
          encoding,
          kB(route.bytes),
          perSecond(site.requestsPerSecond),
          `${Math.round(site.p99Ms)} ms`,
          `${perSecond(bypassed.requestsPerSecond)} (${Math.round(bypassed.p99Ms)} ms) at ${route.bypassPath}`,
          `${(proxyShare(site.requestsPerSecond, bypassed.requestsPerSecond) * 100).toFixed(1)} %`,
          `${route.floor.path} (${kB(route.floor.bytes)})`,
          `${perSecond(floor.requestsPerSecond)} (${Math.round(floor.p99Ms)} ms)`,
          `${(site.requestsPerSecond / floor.requestsPerSecond).toFixed(2)} ×`,
        ]
      }),
    ),
  )
  const failures = server.routes.flatMap((route) =>
    ENCODINGS.flatMap((encoding) =>
      Object.entries(route.runs[encoding])
        .filter(([, run]) => run.errors > 0)
        .map(([which, run]) => `${route.route} ${encoding} ${which}: ${run.errors} connection errors`),
    ),
  )
  if (failures.length > 0) lines.push(`Connection errors: ${failures.join('; ')}.`, '')
}

/** How a version's page was asked for and checked, and what it is held to. */
function variantMethod(variant: MeasuredVariant, site: Measured, control: Measured | undefined): string {
  const asked =
    'campaign' in variant
      ? [
          `the page at \`${site.path}\` as the campaign version \`${variant.campaign}\` shows it, published in the bench's own copy of the content (the seed with the editors' guide's examples added: \`${BENCH_SEED_PATH}\`, served through \`CONTENT_SEED_PATH\`).`,
          `Every load of it (the weight fetch, the cache settling before each run, and each Lighthouse run) asks for \`${site.path}${variant.query}\` with a browser's user agent and no cookie (the proxy shows crawlers the page as published), so the proxy rewrites it to the version's static page.`,
          "Each document served is checked to carry the version's headline and not control's, and the bench stops if the proxy served control.",
        ]
      : [
          `the page at \`${site.path}\` as variant \`${variant.key}\` of the experiment \`${variant.experiment}\`, which runs in the bench's own copy of the content (the seed with the editors' guide's examples added: \`${BENCH_SEED_PATH}\`, served through \`CONTENT_SEED_PATH\`).`,
          `Every load of it (the weight fetch, the cache settling before each run, and each Lighthouse run through its \`extraHeaders\`) sends \`Cookie: ${variant.cookie}\` and a browser's user agent (the proxy shows crawlers control), so the proxy rewrites it to the variant's static page.`,
          "Each document served is checked to carry the variant's headline and not control's, and the bench stops if the proxy served control.",
          'With the cookie alone and no choice stored in `localStorage`, the page still shows the consent banner and loads no analytics: the same conditions as control.',
        ]
  return [
    ...asked,
    `It is held to \`${site.path}\`'s targets against the same floor page${control ? `, and its first-load JS must be control's: the same scripts, byte for byte (control: ${control.js.scripts} scripts, ${kB(control.js.jsGzip)}; ${'campaign' in variant ? 'the version' : 'the variant'}: ${site.js.scripts}, ${kB(site.js.jsGzip)})` : ' (control was not measured in this run, so its first-load JS is not compared)'}.`,
  ].join(' ')
}

/**
 * What decides LCP under each throttling, and why the pages carry their CSS and draw their 404
 * the way they do: printed with every report, beside the measured figures.
 */
function criticalPath(report: BenchReport): string {
  const pages = report.routes.filter(({ site }) => site.status === 200).map(({ site }) => site)
  const range = (values: number[]) =>
    Math.min(...values) === Math.max(...values) ? kB(values[0]!) : `${kB(Math.min(...values))} to ${kB(Math.max(...values))}`
  const floor = report.floorText.floor
  const simulatedBudgetMs = 0.2 * floor.lighthouse.lcpMs
  const notFound = report.routes.find(({ site }) => site.status === 404)?.site
  return [
    `**What decides LCP under applied throttling.** Every request waits 562.5 ms for its first byte, the document then arrives at 1.47 Mbit/s (about 5.4 ms per gzipped kB) and the CPU runs 4 × slower. The browser parses and paints as the HTML arrives, so a page's LCP is that wait, plus the bytes of the document (the site's pages: ${range(pages.map((page) => page.htmlGzip))} gzipped, ${range(pages.map((page) => page.parts.beforeH1Gzip ?? page.htmlGzip))} of it before the \`<h1>\`; the floor: ${kB(floor.htmlGzip)}), plus the work on the main thread before the paint: parsing the markup, the inline flight scripts and the stylesheet, style and layout. The async scripts are requested from the \`<head>\` and arrive one wait later; a paint not done by then waits behind their evaluation, and an element drawn by the scripts themselves paints after all of it, at about 3 s.`,
    '',
    "**Each run starts from a fresh cache.** Pages revalidate every minute and a round of runs takes minutes, so before each run the bench asks for the page until the server answers it fresh, then leaves the server idle for a second. Without that, nearly every run found its page stale, and the server regenerated it (and read the published addresses again) behind the response Lighthouse was loading, on the same two cores as Chromium: server response times of 300 to 500 ms in some runs. On a deployment a visitor's page comes from the CDN and the regeneration runs elsewhere; the floor, fully static, never regenerates. The address read no longer delays any request either: past the period, the list in hand answers while it is read again behind the requests (sanity/content/addresses.ts).",
    '',
    "**Where the main-thread time goes.** One Chromium trace of the home page under the same throttling (a single load, so indicative): the first layout that includes the `<h1>` took 148 to 168 ms, the floor's 64 ms. About half of it was the font system: each family named in the stack, at each weight and size, is matched through fontconfig over IPC (272 look-ups, 81 ms, in that trace), then text shaping (31 ms). Copies of the pages served side by side and loaded in turns (medians of 6 to 8; runs of one page spread ±0.1 s) separate the parts. Bytes alone cost nothing: the floor padded with 24 kB of gzipped comment painted as early as the floor (757 ms against 766 ms). The stylesheet costs its parsing and the fonts it names: the floor with the site's stylesheet took 808 ms, and 757 ms when the stack named only `system-ui` before `sans-serif` (its layouts 45 ms, then 22 ms); on the home page the same change took the layouts before the largest paint from 162 ms to 140 ms and the LCP from 1074 ms to 1030 ms. `system-ui` itself cannot ship (Chromium on Linux drew it in a maths face), so `app/globals.css` keeps three of the seven names, the ones no generic family stands for; the figures in this report were measured before that change. Nothing below the hero counts: the home page cut after its hero, or without the hero's figure, painted no earlier. Moving the inline scripts before the `<h1>` into the `<head>`, or the consent banner after `<main>`, put the hero into the first paint (the largest paint became the first) but made that paint later by as much. What is left is the price of styled, laid-out text under a 4 × slower CPU: parsing the stylesheet (about 45 ms), the first read of `localStorage` (about 15 ms) and laying out the header and hero (about 100 ms), against the floor's 25 ms layout of two unstyled lines.",
    '',
    `**Each page carries its stylesheet once.** It is inlined (\`experimental.inlineCss\`): a linked stylesheet blocks rendering until it arrives, one more 562.5 ms wait before any word paints. Next wrote it a second time into the RSC flight data (vercel/next.js#98079, #98110): 8.4 kB gzipped on every page, as large as the CSS part itself (${range(pages.map((page) => page.parts.cssGzip))} here), all of it bytes the document must carry. Critical CSS with the rest deferred would shorten the \`<style>\` before \`<body>\` but needs a per-page extraction at build and a second request that restyles the page when it lands; removing the second copy takes the larger share with no change for the browser. \`patches/next-inline-css\` (run by \`npm install\`) applies the approach of the open upstream fix (vercel/next.js#98397) to Next 16.4.6: the flight data names the stylesheet, and the browser keeps the \`<style>\` it has; \`e2e/page-weight.spec.ts\` counts the copies on every route.`,
    '',
    `**The 404 is drawn by the server.** Next answers \`notFound()\` from a route with an empty HTML body that its scripts fill in (vercel/next.js#62228), so the 404's words waited for them (about 3.9 s under applied throttling, 2.6 s simulated). \`proxy.ts\` now looks every address the content does not own up among the published pages and redirects first and rewrites the rest, with status 404, to one static 404 page${notFound ? ` (here ${kB(notFound.htmlGzip)} gzipped, its words in the HTML)` : ''}.`,
    '',
    "**What decides the simulated LCP.** Lighthouse loads the page once, unthrottled, then estimates slow-4G timings from the requests it saw: the whole HTML document always counts, and so does every other request that *finished before the page's largest paint* in that real load, whatever its priority. Whether the largest paint lands before the async scripts finish downloading on this fast loopback varies from run to run, for the floor too (see its LCP runs): a run where the paint wins is estimated at about 1 s, one where it loses at about 2 s. A script counts when its evaluation began before the paint, and also when its evaluation was too short for Lighthouse's dependency graph (under 10 ms: the small chunks), since then nothing shows it ran later. The more a page has to parse and lay out before its first paint, the more runs it loses. The model also delivers the first 14.6 kB of the document (ten TCP segments) with the first byte and each further window a 150 ms round trip later: the floor's 2 kB fits the first window, the site's pages do not, which costs them 150 ms of the " +
      `${ms(simulatedBudgetMs)} that 1.2 × the floor's simulated LCP would leave above it in this run. That is why the targets hold the applied figures.`,
    '',
    "The floor's own text pages test this without any of the site's code: the same framework, no CSS, no font, no client component.",
  ].join('\n')
}
