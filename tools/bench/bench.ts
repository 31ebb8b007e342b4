/**
 * `npm run bench`: builds and serves the production site on the embedded defaults and, beside
 * it, the framework's floor (a bare Next.js App Router page built with the same versions),
 * then measures per route what a visitor pays: first-load JavaScript, CSS and HTML (gzip, the
 * HTML split into markup, CSS and flight data) and their ratio to the floor, Lighthouse's mobile
 * scores, FCP, LCP and TBT under applied throttling and again under simulated throttling (median
 * of 5 runs each, the floor's beside them, in the same rounds), requests before interaction, requests to third
 * parties before consent; and the waitlist's submit latency in Chromium. The landing page is
 * measured three times: as control, as variant b of an experiment running in the bench's own copy
 * of the content (tools/bench/bench-content.ts), and as a campaign's visitors get it (the
 * editors' guide's campaign version, asked for by its tags), each held to the same targets and to
 * control's first-load JS. The floor's text
 * pages (the bare page with a page's worth of words) are measured in the same rounds, as a
 * reference for what the framework alone does to LCP. Checks the quality
 * budget (pass/miss with the gap) and writes docs/bench.json and docs/bench.md.
 *
 * Exits non-zero when a target is missed (after writing the report), or when it could not
 * measure. Not part of `npm test`: its figures need a quiet machine, not a shared CI runner.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, rm, unlink, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { chromium } from '@playwright/test'
import { renderMarkdown, type BenchReport } from './bench-report'
import { benchSettings } from './bench-settings'
import {
  assertServesVariant,
  BENCH_CONTENT_DIR,
  BENCH_SEED_PATH,
  measuredVariant,
  variantQuery,
  variantRequestHeaders,
  writeBenchContent,
  type PageVariant,
} from './bench-content'
import { ensureChromium } from '../local/chromium'
import { buildFloorApp, floorServerTextPaths, floorTextPaths, siteStylesheet, startFloorApp, STYLED_FLOOR_PATH } from './floor-app'
import { sampleMachine } from './machine-load'
import {
  ENCODINGS,
  FIRST_NAVIGATION,
  loadRun,
  nearestBySize,
  SERVER_CONNECTIONS,
  type Encoding,
  type LoadRun,
  type ServerReport,
  type ServerRoute,
  type Sized,
} from './server-load'
import { CHROMIUM_FLAGS, median, runLighthouse, summarize, THROTTLING, type LighthouseRun, type RunRequest, type Throttling } from './lighthouse'
import { localEnv } from '../local/local-env'
import { firstLoadJs, measurePage } from './page-weight'
import { evaluateNavigation, evaluateRoutes, evaluateServer, judge, routeLabel, type Measured } from './quality-budget'
import { measureCtaNavigation } from './prerender-navigation'
import { assertPortFree, run, waitForUrl } from '../local/run'
import { ANALYTICS_PROXY_PATH } from '../../components/analytics/proxy-path'
import { CONSENT_STORAGE_KEY } from '../../components/analytics/consent'
import { MIN_FILL_MS } from '../../components/waitlist/bot-filter'
import { notFoundRouteFor } from '../../lib/content/paths'
import { DEFAULT_LANGUAGE } from '../../lib/i18n/languages'

const started = Date.now()
const machineLoad = sampleMachine()
const settings = benchSettings(process.argv.slice(2), process.env)
// BENCH_PORT_OFFSET (or else E2E_PORT_OFFSET) shifts the ports, so two checkouts can run at once.
const PORT_OFFSET = Number(process.env.BENCH_PORT_OFFSET ?? process.env.E2E_PORT_OFFSET ?? 0)
const SITE_PORT = 3300 + PORT_OFFSET
const FLOOR_PORT = 3301 + PORT_OFFSET
const SUPABASE_PORT = 54339 + PORT_OFFSET
const BYPASS_PORT = 3302 + PORT_OFFSET
const { signups: SIGNUPS, lighthouseRuns: LIGHTHOUSE_RUNS, serverSeconds: SERVER_SECONDS, navigation: NAVIGATION, partial } = settings
const NOT_FOUND = '/this-page-does-not-exist'
const SERVER_ROUTES = ['/', '/about', '/blog/slack-threads-and-webhooks', NOT_FOUND]

// The bench's content, written before the build reads it: the seed with one experiment running and one campaign version.
const { variant, campaign } = await writeBenchContent()
type Route = { path: string; variant?: PageVariant }
// /privacy is a rich-text page, /careers a page built from sections in the Studio,
// /waitlist/confirm the confirmation link's page (its island checks the token),
// /waitlist/leaderboard the opt-in leaderboard (static, its board read by the server), and
// /search?q=slack the site search with results (rendered for each request).
const ALL_ROUTES: Route[] = [
  { path: '/' },
  { path: '/', variant },
  { path: '/', variant: campaign },
  ...[
    '/about',
    '/waitlist',
    '/waitlist/confirm',
    '/waitlist/leaderboard',
    '/privacy',
    '/careers',
    '/blog',
    '/blog/slack-threads-and-webhooks',
    NOT_FOUND,
    '/de',
    '/search?q=slack',
  ].map((path) => ({ path })),
]
const onlyRoutes = settings.routes
const ROUTES = onlyRoutes ? ALL_ROUTES.filter((route) => onlyRoutes.includes(routeLabel(route))) : ALL_ROUTES
if (ROUTES.length === 0) throw new Error(`BENCH_ROUTES names none of the routes: ${ALL_ROUTES.map(routeLabel).join(', ')}`)
// The run every run is compared with: the last one recorded.
const previous = existsSync('docs/bench.json') ? (JSON.parse(readFileSync('docs/bench.json', 'utf8')) as BenchReport) : null
/** Each page of the site against the floor's page; the 404 against the floor's own 404. */
const floorPathOf = (path: string) => (path === NOT_FOUND ? NOT_FOUND : '/')

const base = `http://localhost:${SITE_PORT}`
const floorBase = `http://localhost:${FLOOR_PORT}`

// A deployment has a PostHog key, and with one every page shows the consent banner and carries
// the consent code: that is the site worth measuring, and the only one where "no request before
// consent" means anything. A placeholder key is never used (the benchmark never consents).
// BENCH_POSTHOG_KEY= (empty) measures the build without analytics; a key in .env.local is kept.
const posthogKey = process.env.NEXT_PUBLIC_POSTHOG_KEY || (process.env.BENCH_POSTHOG_KEY ?? 'phc_bench_placeholder_never_sent')
const env = localEnv({
  NEXT_DIST_DIR: '.next-bench',
  NEXT_PUBLIC_SUPABASE_URL: `http://127.0.0.1:${SUPABASE_PORT}`,
  NEXT_PUBLIC_SITE_URL: base,
  NEXT_PUBLIC_POSTHOG_KEY: posthogKey,
  CONTENT_SEED_PATH: BENCH_SEED_PATH,
})

// Before the slow builds: a server left running on one of these ports would be measured instead.
await assertPortFree(SITE_PORT, 'the site under test')
await assertPortFree(FLOOR_PORT, 'the floor page')
await assertPortFree(SUPABASE_PORT, 'the local waitlist database')

const executablePath = await ensureChromium()
const siteBuild = Date.now()
await run('next', ['build'], { env })
const siteBuildSeconds = (Date.now() - siteBuild) / 1000
const floorBuild = await buildFloorApp(siteStylesheet(env.NEXT_DIST_DIR!))

const servers: ChildProcess[] = [
  // All benchmark sign-ups come from one browser: lift the per-network limit on this throwaway database.
  spawn(
    'tsx',
    ['tools/supabase-local/main.ts', '--port', String(SUPABASE_PORT), '--memory', '--quiet', '--seed-sql', 'tools/supabase-local/relax-rate-limits.sql'],
    {
      stdio: 'inherit',
      env,
    },
  ),
  spawn('next', ['start', '--port', String(SITE_PORT)], { stdio: 'ignore', env }),
  startFloorApp(FLOOR_PORT),
]
const BYPASS_DIST_DIR = `${env.NEXT_DIST_DIR}-bypass`
const stopServers = () => servers.forEach((server) => server.kill('SIGTERM'))
process.on('exit', stopServers)

try {
  await waitForUrl(`http://127.0.0.1:${SUPABASE_PORT}/health`)
  await waitForUrl(base)
  await waitForUrl(floorBase)

  // Every page measured: the site's routes, the floor's two and its text pages. HTML weights first (this also
  // warms each server's cache, so no Lighthouse run pays a first render).
  // The floor's `/` always: the text pages are reported against it.
  const floorPaths = [...new Set(['/', ...ROUTES.map((route) => floorPathOf(route.path))]), STYLED_FLOOR_PATH, ...floorTextPaths]
  const pages: BenchPage[] = [...ROUTES.map((route) => ({ base, ...route })), ...floorPaths.map((path) => ({ base: floorBase, path }))]
  const weights = await Promise.all(
    pages.map(async (page) => {
      const weight = await measurePage(page.base, addressOf(page), requestOf(page).headers)
      requestOf(page).checkDocument?.(weight.html)
      return weight
    }),
  )

  // Lighthouse runs round-robin (site and floor pages alternate, run after run, each page under
  // both throttlings) so that a noisy moment on this shared 2-core machine hits all pages alike,
  // not one page's five runs.
  const runs = new Map<string, LighthouseRun[]>(pages.flatMap((page) => THROTTLING.map((throttling) => [runKey(idOf(page), throttling), []] as const)))
  for (let round = 1; round <= LIGHTHOUSE_RUNS; round++) {
    for (const page of pages) {
      for (const throttling of THROTTLING) {
        const url = urlOf(page)
        await settle(url, requestOf(page).headers)
        const result = await runLighthouseWithRetry(url, throttling, requestOf(page))
        console.log(
          `[bench] Lighthouse ${round}/${LIGHTHOUSE_RUNS} ${throttling} ${idOf(page)}: LCP ${Math.round(result.lcpMs)} ms, performance ${result.scores.performance}, accessibility ${result.scores.accessibility}, best practices ${result.scores['best-practices']}, SEO ${result.scores.seo}`,
        )
        runs.get(runKey(idOf(page), throttling))!.push(result)
      }
    }
  }

  const measured = new Map<string, Measured>()
  for (const [i, page] of pages.entries()) {
    const weight = weights[i]!
    const lighthouse = summarize(runs.get(runKey(idOf(page), 'simulated'))!, page.base, ANALYTICS_PROXY_PATH)
    const applied = summarize(runs.get(runKey(idOf(page), 'applied'))!, page.base, ANALYTICS_PROXY_PATH)
    measured.set(idOf(page), {
      path: page.path,
      ...(page.variant ? { variant: measuredVariant(page.variant) } : {}),
      status: weight.status,
      // Both throttlings load the page for real: a script either fetched before `load` counts.
      js: await firstLoadJs(weight, [...new Set([...lighthouse.scriptsBeforeLoad, ...applied.scriptsBeforeLoad])]),
      cssGzip: weight.cssGzip,
      inlineCssGzip: weight.inlineCssGzip,
      htmlGzip: weight.htmlGzip,
      parts: weight.parts,
      applied,
      lighthouse,
    })
  }
  const routes = ROUTES.map((route) => {
    const site = measured.get(idOf({ base, ...route }))!
    const floor = measured.get(`${floorBase}${floorPathOf(route.path)}`)!
    return { site, floor, jsRatio: site.js.jsGzip / floor.js.jsGzip }
  })

  const server = SERVER_SECONDS > 0 ? await measureServer() : null

  const latencies = SIGNUPS > 0 ? await measureSubmitLatency(executablePath) : []
  const navigation = NAVIGATION ? await measureCtaNavigation(executablePath, base, settings.navigationRuns) : null
  const lighthouseBenchmarkIndex = median([...runs.values()].flat().map((r) => r.benchmarkIndex))
  const judgement = judge(lighthouseBenchmarkIndex, previous, settings.acceptCpuIndex)
  const styledFloor = measured.get(`${floorBase}${STYLED_FLOOR_PATH}`)!

  const report: BenchReport = {
    date: new Date().toISOString(),
    durationSeconds: (Date.now() - started) / 1000,
    machine: {
      cores: os.cpus().length,
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
      memoryGB: Math.round(os.totalmem() / 1e9),
      os: `${os.type()} ${os.release()}`,
      node: process.version,
      chromium: chromiumVersion(executablePath),
      lighthouse: packageVersion('lighthouse'),
      lighthouseBenchmarkIndex,
    },
    versions: floorBuild.versions,
    buildSeconds: { site: siteBuildSeconds, floor: floorBuild.buildSeconds },
    settings: {
      lighthouseRuns: LIGHTHOUSE_RUNS,
      lighthouse: `programmatic Lighthouse with its default configuration (mobile form factor, Moto G Power emulation, 412×823; slow 4G, 4× CPU), categories performance, accessibility, best practices and SEO, under each of its two throttling methods: applied (\`throttlingMethod: 'devtools'\`: Chromium slows the network and the CPU during the load and the metrics are observed) and simulated (the default: an unthrottled load, timings estimated from it). Each URL ${LIGHTHOUSE_RUNS} times per method, each run in a fresh Chromium profile, runs interleaved across pages and methods; medians reported (CLS observed either way). The floor runs with the same settings in the same rounds.`,
      analytics: posthogKey
        ? 'the site is built with a PostHog key (a placeholder unless NEXT_PUBLIC_POSTHOG_KEY is set), as a deployment is: every page carries the consent code and shows the banner; the benchmark never answers it.'
        : 'the site is built without a PostHog key (BENCH_POSTHOG_KEY empty): no banner, no consent code.',
      firstLoadJs:
        "gzip bytes of every script a modern browser fetches before the page's `load` event without any interaction: the scripts the HTML names (without `nomodule` ones) and every script Chromium requested before `load` in the Lighthouse runs (union). Scripts fetched after `load` (Next's viewport prefetch of linked routes) or on demand (database client, demo widget, analytics after consent) are not counted.",
      requestsBeforeInteraction: `requests Lighthouse's network log (audit \`network-requests\`) shows as started at or before the observed \`load\` event (audit \`metrics\`, \`observedLoad\`), median of the ${LIGHTHOUSE_RUNS} mobile runs; beside it, all requests of the run (no interaction, until Lighthouse's network-quiet window ended), which adds the favicon and Next's prefetches of linked routes.`,
      thirdParty: `every request, in any of the ${LIGHTHOUSE_RUNS} Lighthouse runs per page (fresh profile, so no consent choice, no interaction), to an origin other than the page's own (scheme, host and port; the local database at 127.0.0.1 counts as a third party, as supabase.co would).`,
    },
    routes,
    floorText: { floor: measured.get(`${floorBase}/`)!, pages: floorTextPaths.map((path) => measured.get(`${floorBase}${path}`)!) },
    styledFloor,
    server,
    machineLoad: machineLoad.stop(),
    judgement,
    targets: [...evaluateRoutes(routes, styledFloor), ...(server ? evaluateServer(server) : []), ...(navigation ? evaluateNavigation(navigation) : [])],
    submit: latencies.length > 0 ? summarizeLatency(latencies) : null,
    navigation,
  }

  const markdown = renderMarkdown(report)
  console.log(`\n${markdown}`)
  // A partial run, or one not judged, is not the record the next run is compared with.
  const reportDir = partial || !judgement.judged ? BENCH_CONTENT_DIR : 'docs'
  await mkdir(reportDir, { recursive: true })
  await writeFile(`${reportDir}/bench.json`, `${JSON.stringify(report, null, 2)}\n`)
  await writeFile(`${reportDir}/bench.md`, markdown)
  if (partial)
    console.log(
      `\n[bench] A partial run (--quick, BENCH_ROUTES, BENCH_LIGHTHOUSE_RUNS, BENCH_SERVER_SECONDS or BENCH_NAVIGATION): report written to ${reportDir}/, docs/bench.md left as it was.`,
    )
  const misses = report.targets.filter((target) => !target.pass)
  if (!judgement.judged) {
    console.error(
      `\n[bench] Not judged: ${judgement.reason}. Report written to ${reportDir}/; BENCH_ACCEPT_CPU_INDEX=1 takes this machine as the new reference.`,
    )
    process.exitCode = 3
  } else if (misses.length > 0) {
    console.error(
      `\n[bench] ${misses.length} target${misses.length === 1 ? '' : 's'} missed:\n${misses.map((t) => `  ${t.route}: ${t.target}: ${t.measured} (limit ${t.limit}; ${t.gap})`).join('\n')}`,
    )
    process.exitCode = 1
  }
} finally {
  stopServers()
}

/**
 * The server table: each of SERVER_ROUTES (those of this run) under load on the site, on a second
 * server of the same build with the proxy bypassed, and the floor's text page of the nearest size.
 */
async function measureServer(): Promise<ServerReport> {
  const bypassPort = await startBypassedSite()
  const bypassBase = `http://localhost:${bypassPort}`
  const chosen = SERVER_ROUTES.filter((path) => ROUTES.some((route) => route.path === path && !route.variant))
  const floorPages: Sized[] = await Promise.all(floorServerTextPaths.map(async (path) => ({ path, bytes: (await bodyOf(`${floorBase}${path}`)).bytes })))
  const floorRuns = new Map<string, LoadRun>()
  const measuredRoutes: ServerRoute[] = []
  for (const path of chosen) {
    const { status, bytes } = await bodyOf(`${base}${path}`)
    const floor = nearestBySize(bytes, floorPages)
    const bypassPath = path === NOT_FOUND ? notFoundRouteFor(path, DEFAULT_LANGUAGE) : `/${DEFAULT_LANGUAGE}${path === '/' ? '' : path}`
    const runs = {} as ServerRoute['runs']
    for (const encoding of ENCODINGS) {
      // All three asked as a browser's first visit asks: the site's fixed pages then skip the proxy,
      // and the bypassed server (no proxy at all) and the floor are asked the same way.
      const site = await timed(`${base}${path}`, encoding)
      const bypassed = await timed(`${bypassBase}${bypassPath}`, encoding)
      const floorKey = `${floor.path} ${encoding}`
      if (!floorRuns.has(floorKey)) floorRuns.set(floorKey, await timed(`${floorBase}${floor.path}`, encoding))
      runs[encoding] = { site, bypassed, floor: floorRuns.get(floorKey)! }
    }
    measuredRoutes.push({ route: path, status, bytes, floor, bypassPath, runs })
  }
  return { connections: SERVER_CONNECTIONS, durationSeconds: SERVER_SECONDS, autocannon: packageVersion('autocannon'), routes: measuredRoutes }
}

/** A short warm-up (the server's first requests compile and fill caches), then the measured run. */
async function timed(url: string, encoding: Encoding): Promise<LoadRun> {
  await loadRun(url, encoding, Math.max(1, Math.round(SERVER_SECONDS / 10)), FIRST_NAVIGATION)
  const result = await loadRun(url, encoding, SERVER_SECONDS, FIRST_NAVIGATION)
  console.log(
    `[bench] server ${url} (${encoding}): ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99Ms} ms, statuses ${JSON.stringify(result.statuses)}`,
  )
  return result
}

async function bodyOf(url: string): Promise<{ status: number; bytes: number }> {
  const response = await fetch(url, { redirect: 'manual', headers: { 'accept-encoding': 'identity' } })
  return { status: response.status, bytes: (await response.arrayBuffer()).byteLength }
}

/**
 * The site's build served again with its proxy matching nothing: a copy of the build (hard links,
 * so no second 500 MB) whose functions manifest, the one `next start` reads the proxy's matcher
 * from, is written anew. The site's server never writes its build folder (isrFlushToDisk is off).
 */
async function startBypassedSite(): Promise<number> {
  await assertPortFree(BYPASS_PORT, 'the site with its proxy bypassed')
  await rm(BYPASS_DIST_DIR, { recursive: true, force: true })
  execFileSync('cp', ['-al', env.NEXT_DIST_DIR!, BYPASS_DIST_DIR])
  const manifestPath = `${BYPASS_DIST_DIR}/server/functions-config-manifest.json`
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { functions: Record<string, { matchers?: { regexp: string; originalSource: string }[] }> }
  const proxy = manifest.functions['/_middleware']
  if (!proxy?.matchers) throw new Error(`${manifestPath} names no proxy matcher: the bench cannot bypass the proxy of this Next version`)
  proxy.matchers = [{ regexp: '^/never-matched-by-the-bench$', originalSource: '/never-matched-by-the-bench' }]
  // A new file, not the hard-linked one rewritten in place (that would change the site's own build).
  await unlink(manifestPath)
  await writeFile(manifestPath, JSON.stringify(manifest))
  const bypassed = spawn('next', ['start', '--port', String(BYPASS_PORT)], { stdio: 'ignore', env: { ...env, NEXT_DIST_DIR: BYPASS_DIST_DIR } })
  servers.push(bypassed)
  await waitForUrl(`http://localhost:${BYPASS_PORT}/en`)
  return BYPASS_PORT
}

/**
 * Before each run the page is asked for until the server answers it from a fresh cache, and is
 * left idle. Pages revalidate every CONTENT_REVALIDATE_SECONDS and a round takes minutes, so
 * without this almost every run found its page stale: the server regenerated it, and read the
 * addresses again, behind the very response Lighthouse was loading, on the same two cores as
 * Chromium (server response times of 300-500 ms in some runs). A deployment's visitor gets the page
 * from the CDN and the regeneration runs elsewhere; the floor, fully static, never regenerates.
 */
async function settle(url: string, headers: Record<string, string> = {}): Promise<void> {
  for (let attempt = 1; attempt <= 10; attempt++) {
    const response = await fetch(url, { redirect: 'manual', headers })
    await response.arrayBuffer()
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    if (response.headers.get('x-nextjs-cache') !== 'STALE') return
  }
}

/** One retry: a Chromium that fails to start or a run that times out on a busy machine is not a measurement. */
async function runLighthouseWithRetry(url: string, throttling: Throttling, request: RunRequest): Promise<LighthouseRun> {
  try {
    return await runLighthouse(url, executablePath, throttling, request)
  } catch (error) {
    console.warn(`[bench] Lighthouse (${throttling}) failed on ${url}, retrying once: ${error instanceof Error ? error.message : String(error)}`)
    return runLighthouse(url, executablePath, throttling, request)
  }
}

/** A page the bench loads: a site page (as a variant when `variant` is set) or a floor page. */
type BenchPage = { base: string; path: string; variant?: PageVariant }

function runKey(id: string, throttling: Throttling): string {
  return `${throttling} ${id}`
}

/** The address a page is asked for at: its path, with a campaign version's tags. */
function addressOf(page: BenchPage): string {
  return `${page.path}${variantQuery(page.variant)}`
}

function urlOf(page: BenchPage): string {
  return `${page.base}${addressOf(page)}`
}

/** Names a page apart from any other at the same path: the variant's and the campaign's pages are `/` too. */
function idOf(page: BenchPage): string {
  return `${page.base}${routeLabel(page)}`
}

/** Every load of a version's page (weight fetch, cache settling, each Lighthouse run) carries its cookies or tags, and each document it gets is checked to be the version's. */
function requestOf(page: BenchPage): RunRequest {
  const shown = page.variant
  if (!shown) return {}
  return { headers: variantRequestHeaders(shown), checkDocument: (html) => assertServesVariant(html, shown, idOf(page)) }
}

function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')) as { version: string }).version
}

function chromiumVersion(path: string): string {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  } catch {
    return `Chromium at ${path} (version unknown)`
  }
}

async function measureSubmitLatency(executablePath: string): Promise<number[]> {
  // Playwright runs headless itself; the rest of the flags keep Chromium off Google's hosts.
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS.filter((flag) => !flag.startsWith('--headless')) })
  const context = await browser.newContext()
  // A visitor who declined analytics: the consent banner would otherwise sit over the form on
  // every fresh page, and consent is not what this measures.
  await context.addInitScript((key) => window.localStorage.setItem(key, 'denied'), CONSENT_STORAGE_KEY)
  const page = await context.newPage()
  const results: number[] = []
  const stamp = Date.now()
  for (let i = 0; i < SIGNUPS; i++) {
    await page.goto(`${base}/waitlist`)
    await page.getByLabel('Your Name *').fill(`Bench ${i}`)
    await page.getByLabel('Work Email *').fill(`bench.${stamp}.${i}@example.org`)
    // The form ignores submits faster than a person could make them.
    await page.waitForFunction((ms) => performance.now() > ms, MIN_FILL_MS + 500)
    // Timed inside the page: from the submit event to the confirmation heading in the DOM.
    const elapsed = page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let start = 0
          document.querySelector('form')?.addEventListener('submit', () => (start = performance.now()), { capture: true, once: true })
          new MutationObserver((_, observer) => {
            if (start && document.getElementById('confirmation-title')) {
              observer.disconnect()
              resolve(performance.now() - start)
            }
          }).observe(document.body, { childList: true, subtree: true })
        }),
    )
    await page.getByRole('button', { name: 'Join Waitlist' }).click()
    results.push(await elapsed)
  }
  await browser.close()
  return results
}

function summarizeLatency(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!)
  // `first` includes downloading the database client on the first submit of the session.
  return { count: sorted.length, median: at(0.5), p95: at(0.95), max: Math.round(sorted[sorted.length - 1]!), first: Math.round(values[0]!) }
}
