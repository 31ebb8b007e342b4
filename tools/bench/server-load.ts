import autocannon from 'autocannon'

/**
 * The server's own cost: requests per second and p99 latency of one address under a fixed load
 * (autocannon, a kept pool of connections each sending its next request as soon as the answer
 * arrives), with and without `Accept-Encoding: gzip`. The load tool runs in the bench's process
 * on the same cores as the server, for the site and the floor alike.
 */

export const SERVER_CONNECTIONS = 50
export const FULL_SERVER_SECONDS = 20

export type Encoding = 'identity' | 'gzip'
export const ENCODINGS: readonly Encoding[] = ['identity', 'gzip']

/** One address under load in one encoding. */
export type LoadRun = {
  url: string
  encoding: Encoding
  requestsPerSecond: number
  p99Ms: number
  meanMs: number
  /** Response bytes per second as received (compressed when gzip was asked for). */
  bytesPerSecond: number
  requests: number
  /** Answers by status code; a connection error or timeout counts in `errors`. */
  statuses: Record<string, number>
  errors: number
}

/**
 * What a browser sends with a first visit's navigation, and no cookie: the requests the first-visit
 * rows measure. English's fixed pages answer them without running the proxy (lib/http/proxy-skip.ts),
 * as they do a visitor; a load tool's bare request would go through it.
 */
export const FIRST_NAVIGATION: Readonly<Record<string, string>> = {
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'none',
  'sec-fetch-user': '?1',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
}

export async function loadRun(url: string, encoding: Encoding, durationSeconds: number, headers: Readonly<Record<string, string>> = {}): Promise<LoadRun> {
  const result = await autocannon({
    url,
    connections: SERVER_CONNECTIONS,
    duration: durationSeconds,
    // Without an Accept-Encoding, Next's compression stays off, as for the issue's own figures.
    headers: { ...headers, ...(encoding === 'gzip' ? { 'accept-encoding': 'gzip' } : {}) },
  })
  const statuses: Record<string, number> = {}
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = stats.count ?? 0
  return {
    url,
    encoding,
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    meanMs: result.latency.average,
    bytesPerSecond: result.throughput.average,
    requests: result.requests.total,
    statuses,
    errors: result.errors,
  }
}

/** A page of the floor a site route is compared with: its path and the bytes of its HTML (uncompressed). */
export type Sized = { path: string; bytes: number }

/**
 * The floor page whose uncompressed HTML is nearest in size to `bytes`, by ratio (a 178 kB page is
 * nearer 267 kB than 55 kB): serving is mostly writing bytes, so a page is held against the floor
 * serving as many.
 */
export function nearestBySize(bytes: number, candidates: readonly Sized[]): Sized {
  if (candidates.length === 0) throw new Error('No floor pages to compare with')
  const distance = (candidate: Sized) => Math.abs(Math.log(Math.max(candidate.bytes, 1) / Math.max(bytes, 1)))
  return candidates.reduce((best, candidate) => (distance(candidate) < distance(best) ? candidate : best))
}

/**
 * The proxy's share of a page's server time, from the same route served with and without it: with
 * the server saturated, its time per request is 1 / (requests per second), so the share is
 * 1 − rps(with proxy) / rps(bypassed). Negative when the bypassed server happened to be slower
 * (noise): reported as measured.
 */
export const proxyShare = (withProxy: number, bypassed: number): number => 1 - withProxy / bypassed

/** One site route under load: through the proxy, with the proxy bypassed, and the floor page of the nearest size. */
export type ServerRoute = {
  route: string
  status: number
  /** Uncompressed HTML bytes of the route, and the floor page it is held against. */
  bytes: number
  floor: Sized
  /** The address the proxy rewrites the route to, asked for directly on the server without the proxy. */
  bypassPath: string
  runs: Record<Encoding, { site: LoadRun; bypassed: LoadRun; floor: LoadRun }>
}

export type ServerReport = {
  connections: number
  durationSeconds: number
  autocannon: string
  routes: ServerRoute[]
}
