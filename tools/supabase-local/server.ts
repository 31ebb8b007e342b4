/**
 * LOCAL POSTGREST DOUBLE - a development and test stand-in for a Supabase
 * project's REST API (gateway + PostgREST), NOT Supabase and not for
 * production.
 *
 * It serves /rest/v1 over a real Postgres (PGlite, Postgres compiled to WASM)
 * with the project's migrations applied, checks API keys like Supabase's
 * gateway, and runs each request's SQL as the key's role (anon,
 * authenticated, service_role) so grants and row-level security decide, as
 * they do on Supabase. It answers with PostgREST's status codes and error
 * bodies, and uses Supabase's well-known local demo keys, so the site can be
 * pointed at this or at `supabase start` without any other change.
 *
 * Client addresses: it plays the platform's edge, which the client cannot
 * talk past. Every forwarding header the client sent (X-Forwarded-For,
 * X-Real-IP, CF-Connecting-IP, Forwarded, True-Client-IP, ...) is dropped, and
 * CF-Connecting-IP, X-Forwarded-For and X-Real-IP are set to the TCP peer.
 * SQL reads them as PostgREST passes them, in
 * current_setting('request.headers', true)::json (lower-cased names, Cookie
 * left out, the last of repeated lines winning). So the waitlist's
 * per-client limit counts what the socket says, never what a header claims.
 * A test or load run acts as many clients by connecting from different
 * loopback addresses (127.0.0.0/8), see ./loopback-fetch.ts.
 *
 * Modules: server.ts (HTTP, CORS, keys), postgrest.ts (REST -> SQL),
 * errors.ts (error bodies and status codes), migrate.ts, jwt.ts, keys.ts.
 * Run it with `tsx tools/supabase-local/main.ts`.
 */
import { mkdir } from 'node:fs/promises'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { errors, HttpError, type ErrorResponse } from './errors'
import { verifyJwt } from './jwt'
import { LOCAL_ANON_KEY, LOCAL_JWT_SECRET, LOCAL_SERVICE_ROLE_KEY } from './keys'
import { applyMigrations, MIGRATIONS_DIR } from './migrate'
import { migratedPglite } from './migrated-pglite'
import { ROLE_STATEMENT_TIMEOUTS_SQL } from './statement-timeouts'
import { handleRest, type PostgrestOptions, type RestDatabase } from './postgrest'

export interface LocalSupabaseOptions {
  /** Default 54321, Supabase's local API port; 0 picks a free port. */
  port?: number
  /** Default 127.0.0.1: the demo keys are public, so do not expose this beyond the machine. */
  host?: string
  /** Folder for the Postgres data; undefined keeps everything in memory. */
  dataDir?: string
  migrationsDir?: string
  /** Receives one line per request and lifecycle events. */
  log?: (line: string) => void
  /** PostgREST's db-max-rows (Supabase default 1000). */
  maxRows?: number
  /**
   * SQL run as the superuser after the migrations, on every start: a development or test
   * seed, e.g. tools/supabase-local/relax-rate-limits.sql for a browser test that signs up more
   * often from 127.0.0.1 than the waitlist's per-client limit allows.
   */
  seedSql?: string
}

export interface LocalSupabase {
  /** Base URL to give createClient(), e.g. http://127.0.0.1:54321 */
  url: string
  anonKey: string
  serviceRoleKey: string
  /** The underlying database, for tests that need to look behind the API. */
  db: PGlite
  /** Migration versions applied by this start (empty when the data folder was up to date). */
  appliedMigrations: string[]
  close(): Promise<void>
}

const MAX_BODY_BYTES = 1024 * 1024
// The roles Supabase's authenticator may switch to; a JWT naming another role is refused.
const ROLES = ['anon', 'authenticated', 'service_role'] as const
const API_KEY_ROLES = new Set(['anon', 'service_role'])
const EXPOSED_HEADERS = [
  'Content-Encoding',
  'Content-Location',
  'Content-Range',
  'Content-Type',
  'Date',
  'Location',
  'Server',
  'Transfer-Encoding',
  'Range-Unit',
  'Preference-Applied',
  'Proxy-Status',
  'Retry-After',
].join(', ')
const DEFAULT_ALLOWED_HEADERS =
  'apikey, authorization, content-type, prefer, range, x-client-info, accept-profile, content-profile, x-supabase-api-version, x-retry-count'

function corsHeaders(request: IncomingMessage): Record<string, string> {
  const origin = request.headers.origin
  return {
    // Echoing the origin (rather than "*") keeps working if a client ever sends credentials.
    'Access-Control-Allow-Origin': origin ?? '*',
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
    ...(origin ? { Vary: 'Origin' } : {}),
  }
}

function send(response: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  const payload = status === 204 || status === 304 ? '' : body
  response.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(payload)) })
  response.end(payload)
}

function sendError(response: ServerResponse, cors: Record<string, string>, error: ErrorResponse): void {
  send(response, error.status, { ...cors, 'Content-Type': 'application/json; charset=utf-8', ...error.headers }, JSON.stringify(error.body))
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    const buffer = chunk as Buffer
    size += buffer.length
    if (size > MAX_BODY_BYTES) throw errors.payloadTooLarge()
    chunks.push(buffer)
  }
  return Buffer.concat(chunks)
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * PostgREST decodes a JSON body before it builds any SQL, and refuses one that is not valid
 * UTF-8 as invalid JSON; replacing the bad bytes (Buffer#toString) would store what was not sent.
 */
function decodeBody(body: Buffer): string {
  try {
    return UTF8.decode(body)
  } catch {
    throw errors.invalidBody('Empty or invalid json')
  }
}

/** The TCP peer as nginx writes $remote_addr: an IPv4 client of a dual-stack socket as plain IPv4. */
function peerAddress(request: IncomingMessage): string {
  const address = request.socket.remoteAddress ?? ''
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice('::ffff:'.length) : address
}

/** Headers that name a client address: only the edge may set them, whatever the client sent. */
export const CLIENT_ADDRESS_HEADERS = new Set([
  'cf-connecting-ip',
  'cf-connecting-ipv6',
  'true-client-ip',
  'x-forwarded-for',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'fastly-client-ip',
  'forwarded',
])

/**
 * The header lines PostgREST receives behind the platform's edge: the request's own lines, in
 * order and lower-cased, without any client-written address header, then the edge's own
 * CF-Connecting-IP, X-Forwarded-For and X-Real-IP, all the TCP peer.
 */
export function gatewayHeaderLines(rawHeaders: readonly string[], peer: string): [string, string][] {
  const lines: [string, string][] = []
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = (rawHeaders[i] as string).toLowerCase()
    if (!CLIENT_ADDRESS_HEADERS.has(name)) lines.push([name, rawHeaders[i + 1] as string])
  }
  lines.push(['cf-connecting-ip', peer], ['x-forwarded-for', peer], ['x-real-ip', peer])
  return lines
}

/** The gateway's key check, then PostgREST's JWT check; returns the claims the request runs with. */
async function authenticate(request: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const apikeyHeader = request.headers.apikey
  const apikey = (Array.isArray(apikeyHeader) ? apikeyHeader[0] : apikeyHeader) ?? url.searchParams.get('apikey')
  if (!apikey) throw errors.noApiKey()
  const key = await verifyJwt(apikey, LOCAL_JWT_SECRET)
  if (!key.ok || !API_KEY_ROLES.has(String(key.claims.role))) throw errors.invalidApiKey()

  // A signed-in user's token travels in Authorization while apikey stays the public key.
  const bearer = /^Bearer\s+(.*)$/i.exec(request.headers.authorization ?? '')
  if (!bearer) return key.claims
  const token = (bearer[1] ?? '').trim()
  if (token === '') throw errors.jwt('PGRST301', 'Empty JWT is sent in Authorization header')
  const verified = await verifyJwt(token, LOCAL_JWT_SECRET)
  if (!verified.ok) throw errors.jwt(verified.reason === 'expired' ? 'PGRST303' : 'PGRST301', verified.message)
  return verified.claims
}

interface RestServer {
  url: string
  close(): Promise<void>
}

/**
 * The HTTP half: keys, CORS and the gateway's headers, then ./postgrest.ts over whatever database
 * `database()` resolves to (requests that arrive while it is being prepared wait for it).
 */
async function serveRest(
  database: () => Promise<RestDatabase>,
  { port, host, log, maxRows }: { port: number; host: string; log?: (line: string) => void; maxRows: number },
): Promise<RestServer> {
  const postgrest: PostgrestOptions = { maxRows, roles: ROLES, anonRole: 'anon' }
  const server = createServer((request, response) => {
    const started = Date.now()
    const cors = corsHeaders(request)
    const url = new URL(request.url ?? '/', 'http://localhost')
    const method = (request.method ?? 'GET').toUpperCase()
    const finish = (status: number) => log?.(`${method} ${url.pathname}${url.search} -> ${status} (${Date.now() - started} ms)`)

    void (async () => {
      try {
        if (method === 'OPTIONS') {
          // CORS preflight, answered before any key check like Supabase's gateway does.
          const requested = request.headers['access-control-request-headers']
          send(
            response,
            200,
            {
              ...cors,
              'Access-Control-Allow-Methods': 'GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS',
              'Access-Control-Allow-Headers': requested ?? DEFAULT_ALLOWED_HEADERS,
              'Access-Control-Max-Age': '3600',
            },
            '',
          )
          return finish(200)
        }
        if (url.pathname === '/health' && (method === 'GET' || method === 'HEAD')) {
          await database()
          send(response, 200, { ...cors, 'Content-Type': 'application/json; charset=utf-8' }, '{"status":"ok"}')
          return finish(200)
        }
        if (url.pathname !== '/rest/v1' && !url.pathname.startsWith('/rest/v1/')) throw errors.noRoute()

        const claims = await authenticate(request, url)
        const body = decodeBody(await readBody(request))
        const result = await handleRest(
          await database(),
          {
            method,
            path: url.pathname.slice('/rest/v1'.length) || '/',
            query: url.searchParams,
            headerLines: gatewayHeaderLines(request.rawHeaders, peerAddress(request)),
            body,
            role: typeof claims.role === 'string' ? claims.role : 'anon',
            claims,
          },
          postgrest,
        )
        send(response, result.status, { ...cors, ...result.headers }, result.body)
        finish(result.status)
      } catch (error) {
        if (error instanceof HttpError) {
          sendError(response, cors, error.response)
          return finish(error.response.status)
        }
        log?.(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        if (!response.headersSent) sendError(response, cors, errors.internal('Internal error in the local PostgREST double').response)
        finish(500)
      }
    })()
  })

  // Bind first: a second instance on the same port fails here, before it touches the data folder.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${urlHost}:${address.port}`,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/**
 * The same REST double over a database the caller prepared (migrations, roles, timeouts): the
 * scale bench's real PostgreSQL through ./real-postgres.ts's poolDatabase, so the owner tools are
 * measured through supabase-js and REST as the founders run them, on the server production has.
 */
export async function startRestOver(
  database: RestDatabase,
  { port = 0, host = '127.0.0.1', log, maxRows = 1000 }: Pick<LocalSupabaseOptions, 'port' | 'host' | 'log' | 'maxRows'> = {},
): Promise<{ url: string; anonKey: string; serviceRoleKey: string; close(): Promise<void> }> {
  const served = await serveRest(async () => database, { port, host, maxRows, ...(log ? { log } : {}) })
  return { url: served.url, anonKey: LOCAL_ANON_KEY, serviceRoleKey: LOCAL_SERVICE_ROLE_KEY, close: served.close }
}

export async function startLocalSupabase(options: LocalSupabaseOptions = {}): Promise<LocalSupabase> {
  const { port = 54321, host = '127.0.0.1', dataDir, migrationsDir = MIGRATIONS_DIR, log, maxRows = 1000, seedSql } = options

  let db: PGlite | undefined
  // Requests that arrive while migrations run wait for this instead of failing.
  const startup = Promise.withResolvers<void>()
  const ready = startup.promise
  // A failed start is reported by startLocalSupabase itself, not as an unhandled rejection.
  ready.catch(() => {})

  const served = await serveRest(
    async () => {
      await ready
      return db as PGlite
    },
    { port, host, maxRows, ...(log ? { log } : {}) },
  )

  const close = async () => {
    await served.close()
    if (db && !db.closed) await db.close()
  }

  let appliedMigrations: string[]
  try {
    if (dataDir !== undefined) await mkdir(dataDir, { recursive: true })
    // In memory, from the migrated snapshot (./migrated-pglite.ts): the tests and the end-to-end
    // stack start many of these. A data folder keeps its own history and is migrated in place.
    db = dataDir === undefined ? await migratedPglite(migrationsDir) : await PGlite.create(path.resolve(dataDir))
    appliedMigrations = dataDir === undefined ? [] : await applyMigrations(db, migrationsDir)
    await db.exec(ROLE_STATEMENT_TIMEOUTS_SQL)
    if (seedSql !== undefined) await db.exec(seedSql)
    startup.resolve()
  } catch (error) {
    startup.reject(error)
    await close()
    throw error
  }

  return {
    url: served.url,
    anonKey: LOCAL_ANON_KEY,
    serviceRoleKey: LOCAL_SERVICE_ROLE_KEY,
    db,
    appliedMigrations,
    close,
  }
}
