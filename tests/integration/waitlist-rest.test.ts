/**
 * The waitlist's REST contract, driven through the real @supabase/supabase-js
 * client: what the public (anon) key can and cannot do, and the status codes
 * and PostgREST error bodies the site relies on.
 *
 * The same table of cases runs against every configured target:
 * - the local PostgREST double (always),
 * - the same double over Debian's PostgreSQL instead of PGlite (the scale bench's backend,
 *   tools/supabase-local/server.ts startRestOver) when the server is installed, and
 * - a real stack (e.g. `supabase start` with this repo's migrations) when
 *   SUPABASE_TEST_URL and SUPABASE_TEST_ANON_KEY are set; service-role cases
 *   also need SUPABASE_TEST_SERVICE_ROLE_KEY.
 * Cases that need the JWT secret or the database itself run on the double only.
 *
 * The waitlist limits sign-ups per client address (50 per hour, from the
 * address the platform's edge sets, never one the client writes). Against
 * the double every test signs up as its own client, a fresh loopback source
 * address (tools/supabase-local/loopback-fetch.ts), like the visitors it stands
 * for. Against a real stack the test machine is one client: keep runs within
 * the limit there.
 */
import { createServer, type AddressInfo } from 'node:net'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { createWaitlistClient } from '@/components/waitlist/client'
import { joinWaitlist } from '@/components/waitlist/join'
import { waitlistPages, type ListedEntry } from '@/tools/owner/owner'
import { signJwt } from '@/tools/supabase-local/jwt'
import { LOCAL_JWT_SECRET } from '@/tools/supabase-local/keys'
import { loopbackAddress, loopbackFetch } from '@/tools/supabase-local/loopback-fetch'
import { poolDatabase } from '@/tools/supabase-local/real-postgres'
import { startLocalSupabase, startRestOver, type LocalSupabase } from '@/tools/supabase-local/server'
import { startRealPostgres, type RealPostgres } from '../helpers/real-postgres'

interface Target {
  url: string
  anonKey: string
  serviceRoleKey?: string
  /** The double, whose clients are told apart by their loopback source address. */
  local?: boolean
}

interface TargetDefinition {
  name: string
  enabled: boolean
  start: () => Promise<Target>
}

const realUrl = process.env.SUPABASE_TEST_URL
const realAnonKey = process.env.SUPABASE_TEST_ANON_KEY
const realServiceKey = process.env.SUPABASE_TEST_SERVICE_ROLE_KEY

if (!realUrl || !realAnonKey) {
  console.info(
    '[waitlist-rest] SUPABASE_TEST_URL / SUPABASE_TEST_ANON_KEY not set: the REST cases run against the local double only; ' +
      'the real-stack suite is skipped.',
  )
}

// One double for the whole file: each start boots a WASM Postgres (seconds on two cores).
let localDouble: Promise<LocalSupabase> | undefined
const startLocalDouble = () => (localDouble ??= startLocalSupabase({ port: 0 }))
afterAll(async () => {
  await (await localDouble)?.close()
})

// The double's HTTP and PostgREST code over a `pg` Pool on a real server (as the scale bench runs it).
const postgresBinaries = inject('postgres')
let overPostgres: Promise<{ rest: Awaited<ReturnType<typeof startRestOver>>; postgres: RealPostgres }> | undefined
async function startDoubleOverPostgres() {
  const start = await startRealPostgres({ maxConnections: 40 })
  if (!start.ok) throw new Error(start.reason)
  const rest = await startRestOver(poolDatabase(start.postgres.api))
  return { rest, postgres: start.postgres }
}
afterAll(async () => {
  const running = await overPostgres
  await running?.rest.close()
  await running?.postgres.close()
})

const targets: TargetDefinition[] = [
  {
    name: 'the local PostgREST double',
    enabled: true,
    start: async () => {
      const { url, anonKey, serviceRoleKey } = await startLocalDouble()
      return { url, anonKey, serviceRoleKey, local: true }
    },
  },
  {
    name: 'the local PostgREST double over real PostgreSQL',
    enabled: postgresBinaries.ok,
    start: async () => {
      const { url, anonKey, serviceRoleKey } = (await (overPostgres ??= startDoubleOverPostgres())).rest
      return { url, anonKey, serviceRoleKey, local: true }
    },
  },
  {
    name: `a real stack (${realUrl ?? 'SUPABASE_TEST_URL unset'})`,
    enabled: Boolean(realUrl && realAnonKey),
    start: async () => ({ url: realUrl ?? '', anonKey: realAnonKey ?? '', serviceRoleKey: realServiceKey }),
  },
]

// Unique per run so a real stack can be tested repeatedly; cleaned up with the service key when there is one.
const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
// A domain per run too: the per-domain limit (50 per 10 minutes) would otherwise add up over
// reruns against a real stack.
const email = (label: string) => `${label}@${runId}.example.com`

// The production per-client limit (supabase/migrations/*_waitlist_trust.sql).
const PER_CLIENT_LIMIT = 50

// Loopback source addresses, a random block per run so a long-lived double does not add them up.
const runBlock = Math.floor(Math.random() * 50_000)
let clients = 0
const nextClientAddress = () => loopbackAddress(runBlock + ++clients)

const NO_SESSION = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false }

function serverClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, { auth: NO_SESSION })
}

/** The site's anon client as one visitor's machine (on the double: its own source address). */
function anonFrom(target: Target, address: string, headers: Record<string, string> = {}): SupabaseClient {
  return createClient(target.url, target.anonKey, {
    auth: NO_SESSION,
    global: { headers, ...(target.local ? { fetch: loopbackFetch(address) } : {}) },
  })
}

/** A raw request from one visitor's machine. */
function fetchFrom(target: Target, address: string): typeof fetch {
  return target.local ? loopbackFetch(address) : fetch
}

interface Outcome {
  status: number
  error: { code?: string; message: string; details?: string | null; hint?: string | null } | null
  data?: unknown
}

interface Case {
  name: string
  run: (ctx: { anon: SupabaseClient; target: Target }) => PromiseLike<Outcome>
  expect: { status: number; code?: string; message?: RegExp }
}

const cases: Case[] = [
  {
    name: 'insert of a valid row -> 201, empty body',
    run: ({ anon }) => anon.from('waitlist').insert({ name: 'Ada', email: email('ada'), project: 'Engines' }),
    expect: { status: 201 },
  },
  {
    name: 'insert of several rows at once (supabase-js adds ?columns=) -> 400 WL400, one sign-up per request',
    run: ({ anon }) =>
      anon.from('waitlist').insert([
        { name: 'Bea', email: email('bea'), project: '' },
        { name: 'Cal', email: email('cal'), project: 'Calc' },
      ]),
    expect: { status: 400, code: 'WL400', message: /One sign-up per request/ },
  },
  {
    name: 'an array of one row -> 201',
    run: ({ anon }) => anon.from('waitlist').insert([{ name: 'Bea', email: email('bea'), project: '' }]),
    expect: { status: 201 },
  },
  {
    name: '[listed address, invalid row] -> 400 WL400, the same as for an unlisted one (no oracle)',
    run: ({ anon }) =>
      anon.from('waitlist').insert([
        { name: 'Probe', email: email('ada').toUpperCase(), project: '' },
        { name: 'Bad', email: 'not an e-mail', project: '' },
      ]),
    expect: { status: 400, code: 'WL400' },
  },
  {
    name: '[unlisted address, invalid row] -> 400 WL400',
    run: ({ anon }) =>
      anon.from('waitlist').insert([
        { name: 'Probe', email: email('never-listed'), project: '' },
        { name: 'Bad', email: 'not an e-mail', project: '' },
      ]),
    expect: { status: 400, code: 'WL400' },
  },
  {
    name: 'a look-alike spelling (full-width letters, zero-width space) of a listed address -> 409 23505',
    run: ({ anon }) => anon.from('waitlist').insert({ name: 'Ada twin', email: `\uFF41\u200Bda@${runId}.example.com`, project: '' }),
    expect: { status: 409, code: '23505' },
  },
  {
    name: 'an angle-bracket domain -> 400 23514',
    run: ({ anon }) => anon.from('waitlist').insert({ name: 'X', email: 'a@<svg/onload=alert(1)>.example', project: '' }),
    expect: { status: 400, code: '23514', message: /waitlist_email_format/ },
  },
  {
    name: 'the same e-mail in another case and with spaces -> 409 23505',
    run: ({ anon }) => anon.from('waitlist').insert({ name: 'Ada again', email: `  ${email('ada').toUpperCase()} `, project: '' }),
    expect: { status: 409, code: '23505', message: /duplicate key value violates unique constraint/ },
  },
  {
    name: 'blank name -> 400 23514',
    run: ({ anon }) => anon.from('waitlist').insert({ name: '   ', email: email('blank'), project: '' }),
    expect: { status: 400, code: '23514', message: /waitlist_name_not_blank/ },
  },
  {
    name: 'malformed e-mail -> 400 23514',
    run: ({ anon }) => anon.from('waitlist').insert({ name: 'Bo', email: `bo ${runId}@example`, project: '' }),
    expect: { status: 400, code: '23514', message: /waitlist_email_format/ },
  },
  {
    name: 'name over 100 characters -> 400 23514',
    run: ({ anon }) => anon.from('waitlist').insert({ name: 'n'.repeat(101), email: email('long-name'), project: '' }),
    expect: { status: 400, code: '23514', message: /waitlist_name_length/ },
  },
  {
    name: 'e-mail over 254 characters -> 400 23514',
    run: ({ anon }) => anon.from('waitlist').insert({ name: 'Cy', email: `${'e'.repeat(250)}${email('x')}`, project: '' }),
    expect: { status: 400, code: '23514', message: /waitlist_email_length/ },
  },
  {
    name: 'project over 200 characters -> 400 23514',
    run: ({ anon }) => anon.from('waitlist').insert({ name: 'Cy', email: email('long-project'), project: 'p'.repeat(201) }),
    expect: { status: 400, code: '23514', message: /waitlist_project_length/ },
  },
  {
    name: 'missing name (null) -> 400 23502',
    run: ({ anon }) => anon.from('waitlist').insert({ name: null, email: email('null-name'), project: '' }),
    expect: { status: 400, code: '23502' },
  },
  {
    name: 'unknown column -> 400 PGRST204',
    run: ({ anon }) => anon.from('waitlist').insert({ name: 'Di', email: email('col'), project: '', nickname: 'x' }),
    expect: { status: 400, code: 'PGRST204', message: /Could not find the 'nickname' column of 'waitlist' in the schema cache/ },
  },
  {
    name: 'setting created_at (not granted) -> 401 42501',
    run: ({ anon }) => anon.from('waitlist').insert({ name: 'Ed', email: email('backdated'), project: '', created_at: '2000-01-01T00:00:00Z' }),
    expect: { status: 401, code: '42501' },
  },
  {
    name: 'anon reads the list -> 401 42501 (the public key cannot read e-mails)',
    run: ({ anon }) => anon.from('waitlist').select('*'),
    expect: { status: 401, code: '42501', message: /permission denied for table waitlist/ },
  },
  {
    name: 'anon reads one column -> 401 42501',
    run: ({ anon }) => anon.from('waitlist').select('email').limit(1),
    expect: { status: 401, code: '42501' },
  },
  {
    name: 'anon insert with read-back (.select()) -> 401 42501',
    run: ({ anon }) =>
      anon
        .from('waitlist')
        .insert({ name: 'Fay', email: email('readback'), project: '' })
        .select(),
    expect: { status: 401, code: '42501' },
  },
  {
    name: 'anon update -> 401 42501',
    run: ({ anon }) => anon.from('waitlist').update({ name: 'Mallory' }).eq('email', email('ada')),
    expect: { status: 401, code: '42501' },
  },
  {
    name: 'anon delete -> 401 42501',
    run: ({ anon }) => anon.from('waitlist').delete().eq('email', email('ada')),
    expect: { status: 401, code: '42501' },
  },
  {
    name: 'unknown table -> 404 PGRST205',
    run: ({ anon }) => anon.from('waitlists').insert({ name: 'Gus', email: email('gus'), project: '' }),
    expect: { status: 404, code: 'PGRST205', message: /Could not find the table 'public.waitlists' in the schema cache/ },
  },
  {
    name: 'unknown function -> 404 PGRST202',
    run: ({ anon }) => anon.rpc('no_such_function_for_the_waitlist', { a: 1 }),
    expect: { status: 404, code: 'PGRST202' },
  },
  {
    name: 'a key signed with another secret -> 401 Invalid API key',
    run: async ({ target }) =>
      serverClient(target.url, await signJwt({ role: 'anon', exp: 4102444800 }, 'not-the-secret-of-this-project-at-all-000'))
        .from('waitlist')
        .insert({ name: 'Hal', email: email('badkey'), project: '' }),
    expect: { status: 401, message: /Invalid API key/ },
  },
]

for (const definition of targets) {
  describe.skipIf(!definition.enabled)(`waitlist REST API against ${definition.name}`, () => {
    let target: Target
    let anon: SupabaseClient

    beforeAll(async () => {
      target = await definition.start()
    })

    beforeEach(() => {
      anon = anonFrom(target, nextClientAddress())
    })

    afterAll(async () => {
      if (target?.serviceRoleKey) {
        await serverClient(target.url, target.serviceRoleKey).from('waitlist').delete().like('email', `%@${runId}.example.com`)
      }
    })

    // Sequential on purpose: the duplicate case relies on the first insert.
    for (const testCase of cases) {
      it(testCase.name, async () => {
        const outcome = await testCase.run({ anon, target })
        expect(outcome.status).toBe(testCase.expect.status)
        if (testCase.expect.status < 300) {
          expect(outcome.error).toBeNull()
        } else {
          // PostgREST's error body; the gateway's (Kong) has only message and hint.
          expect(outcome.error).not.toBeNull()
          if (testCase.expect.code) {
            expect(outcome.error?.code).toBe(testCase.expect.code)
            expect(Object.keys(outcome.error ?? {}).sort()).toEqual(['code', 'details', 'hint', 'message'])
          }
          if (testCase.expect.message) expect(outcome.error?.message).toMatch(testCase.expect.message)
        }
      })
    }

    it('service role sees the trimmed row and nothing from refused inserts', async ({ skip }) => {
      if (!target.serviceRoleKey) return skip('no service-role key for this target')
      const { data, error, status } = await serverClient(target.url, target.serviceRoleKey)
        .from('waitlist')
        .select('name,email,project')
        .like('email', `%@${runId}.example.com`)
        .order('email')
      expect({ error, status }).toEqual({ error: null, status: 200 })
      expect(data).toEqual([
        { name: 'Ada', email: email('ada'), project: 'Engines' },
        { name: 'Bea', email: email('bea'), project: '' },
      ])
    })

    it('joinWaitlist: saved, then duplicate for the same address in another case', async () => {
      const input = { name: ' Grace ', email: email('grace'), company: '' }
      expect(await joinWaitlist(anon, input)).toEqual({ status: 'saved' })
      expect(await joinWaitlist(anon, { ...input, email: `  ${input.email.toUpperCase()}  ` })).toEqual({
        status: 'duplicate',
        message: 'This email is already on the waitlist!',
      })
    })

    it('concurrent sign-ups with one address: exactly one is saved, the rest are duplicates', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => joinWaitlist(anon, { name: `Racer ${i}`, email: i % 2 ? email('race') : email('RACE') })),
      )
      expect(results.filter((result) => result.status === 'saved')).toHaveLength(1)
      expect(results.filter((result) => result.status === 'duplicate')).toHaveLength(7)
    })

    it('joinWaitlist: a refused row is failed with the backend message, code and status', async () => {
      expect(await joinWaitlist(anon, { name: 'x'.repeat(101), email: email('too-long') })).toEqual({
        status: 'failed',
        message: 'new row for relation "waitlist" violates check constraint "waitlist_name_length"',
        code: '23514',
        httpStatus: 400,
      })
    })

    it('the refused read-back insert stored nothing (its transaction was rolled back)', async () => {
      expect(await joinWaitlist(anon, { name: 'Fay', email: email('readback') })).toEqual({ status: 'saved' })
    })

    it('a request without any API key -> 401 No API key found', async () => {
      const response = await fetch(`${target.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Ian', email: email('nokey'), project: '' }),
      })
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ message: 'No API key found in request' })
    })

    it('malformed JSON -> 400 PGRST102', async () => {
      const response = await fetch(`${target.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { apikey: target.anonKey, Authorization: `Bearer ${target.anonKey}`, 'Content-Type': 'application/json' },
        body: '{"name": "Jo",',
      })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'PGRST102' })
    })

    it('answers a CORS preflight from the site origin', async () => {
      const response = await fetch(`${target.url}/rest/v1/waitlist`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://localhost:3000',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'apikey,authorization,content-type,prefer,x-client-info',
        },
      })
      expect([200, 204]).toContain(response.status)
      expect(['*', 'http://localhost:3000']).toContain(response.headers.get('access-control-allow-origin'))
      expect(response.headers.get('access-control-allow-methods')?.toUpperCase()).toContain('POST')
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase()
      for (const header of ['apikey', 'authorization', 'content-type', 'prefer', 'x-client-info']) expect(allowed).toContain(header)
    })

    it('lets a cross-origin response be read (allow-origin on the actual response)', async () => {
      const response = await fetch(`${target.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: {
          Origin: 'http://localhost:3000',
          apikey: target.anonKey,
          Authorization: `Bearer ${target.anonKey}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ name: 'Kim', email: email('cors'), project: '' }),
      })
      expect(response.status).toBe(201)
      expect(['*', 'http://localhost:3000']).toContain(response.headers.get('access-control-allow-origin'))
    })

    it(`a client past ${PER_CLIENT_LIMIT} sign-ups gets 429 WL429 with Retry-After; joinWaitlist says rate_limited`, async () => {
      const address = nextClientAddress()
      const visitor = anonFrom(target, address)
      for (let i = 0; i < PER_CLIENT_LIMIT; i++) {
        expect(await joinWaitlist(visitor, { name: `Eager ${i}`, email: email(`eager${i}`) })).toEqual({ status: 'saved' })
      }

      const refused = await visitor.from('waitlist').insert({ name: 'Eager', email: email('eager-over'), project: '' })
      expect(refused.status).toBe(429)
      expect(refused.error).toEqual({
        code: 'WL429',
        message: 'Too many sign-ups from this network. Please wait a few minutes and try again.',
        details: `At most ${PER_CLIENT_LIMIT} sign-ups per hour from one network.`,
        hint: null,
      })
      expect(await joinWaitlist(visitor, { name: 'Eager', email: email('eager-over') })).toEqual({ status: 'rate_limited' })

      // supabase-js does not surface response headers: the raw response shows Retry-After.
      const response = await fetchFrom(target, address)(`${target.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { apikey: target.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Eager', email: email('eager-over'), project: '' }),
      })
      expect(response.status).toBe(429)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      const retryAfter = Number(response.headers.get('retry-after'))
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600, `Retry-After: ${retryAfter}`).toBe(true)
      expect(await response.json()).toEqual(refused.error)

      // Another visitor is not affected.
      expect(await joinWaitlist(anonFrom(target, nextClientAddress()), { name: 'Patient', email: email('patient') })).toEqual({ status: 'saved' })
    })

    it('simultaneous sign-ups from one client, each forging a new address in every forwarding header: exactly the limit is accepted, the rest 429', async () => {
      const address = nextClientAddress()
      const results = await Promise.all(
        Array.from({ length: PER_CLIENT_LIMIT * 2 }, (_, i) => {
          const forged = `198.51.100.${(i % 250) + 1}`
          const visitor = anonFrom(target, address, { 'X-Forwarded-For': forged, 'CF-Connecting-IP': forged, 'X-Real-IP': forged, Forwarded: `for=${forged}` })
          return joinWaitlist(visitor, { name: `Burst ${i}`, email: email(`burst${i}`) })
        }),
      )
      expect(results.filter((result) => result.status === 'saved')).toHaveLength(PER_CLIENT_LIMIT)
      expect(results.filter((result) => result.status === 'rate_limited')).toHaveLength(PER_CLIENT_LIMIT)
    })
  })
}

describe('the local double only', () => {
  let local: LocalSupabase
  let anon: SupabaseClient

  beforeAll(async () => {
    local = await startLocalDouble()
    anon = createWaitlistClient(local.url, local.anonKey)
  })

  const tokenFor = (claims: Record<string, unknown>) => signJwt({ iss: 'supabase-demo', exp: 4102444800, ...claims }, LOCAL_JWT_SECRET)
  const withToken = (token: string) =>
    createClient(local.url, local.anonKey, {
      auth: NO_SESSION,
      global: { headers: { Authorization: `Bearer ${token}` } },
    })

  it.each([
    { label: 'an expired user token', token: tokenFor({ role: 'authenticated', exp: 1_000_000 }), status: 401, code: 'PGRST303', message: 'JWT expired' },
    {
      label: 'a token signed with another secret',
      token: signJwt({ role: 'anon' }, 'another-secret-another-secret-another-secret'),
      status: 401,
      code: 'PGRST301',
      message: 'JWT cryptographic operation failed',
    },
    {
      label: 'a signed-in user (authenticated) inserting',
      token: tokenFor({ role: 'authenticated', sub: 'u1' }),
      status: 403,
      code: '42501',
      message: 'permission denied for table waitlist',
    },
    {
      label: 'a token naming a role the API may not use',
      token: tokenFor({ role: 'postgres' }),
      status: 403,
      code: '42501',
      message: 'permission denied to set role "postgres"',
    },
  ])('$label -> $status $code', async ({ token, status, code, message }) => {
    const outcome = await withToken(await token)
      .from('waitlist')
      .insert({ name: 'Lu', email: email('token'), project: '' })
    expect(outcome.status).toBe(status)
    expect(outcome.error).toMatchObject({ code, message })
  })

  it('a custom RAISE SQLSTATE PGRST sets status, headers and body, and joinWaitlist reports rate_limited', async () => {
    await local.db.exec(`
      create function public.test_rate_limit() returns trigger language plpgsql as $$
      begin
        if new.email like 'flood@%' then
          raise sqlstate 'PGRST' using
            message = '{"code":"WL429","message":"Too many sign-ups","details":"Try again in a minute","hint":null}',
            detail = '{"status":429,"headers":{"Retry-After":"60"}}';
        end if;
        return new;
      end $$;
      create trigger test_rate_limit before insert on public.waitlist for each row execute function public.test_rate_limit();
    `)
    try {
      const response = await fetch(`${local.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { apikey: local.anonKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Flo', email: email('flood'), project: '' }),
      })
      expect(response.status).toBe(429)
      expect(response.headers.get('retry-after')).toBe('60')
      expect(await response.json()).toEqual({ code: 'WL429', message: 'Too many sign-ups', details: 'Try again in a minute', hint: null })
      expect(await joinWaitlist(anon, { name: 'Flo', email: email('flood') })).toEqual({ status: 'rate_limited' })
    } finally {
      await local.db.exec('drop trigger test_rate_limit on public.waitlist; drop function public.test_rate_limit();')
    }
  })

  it('RPC with named arguments, and the request exposed to SQL like PostgREST does', async () => {
    await local.db.exec(`
      create function public.test_echo(greeting text, times int default 1) returns json language sql as $$
        select json_build_object(
          'text', repeat(greeting, times),
          'role', current_user,
          'claims_role', current_setting('request.jwt.claims', true)::json ->> 'role',
          'header', current_setting('request.headers', true)::json ->> 'x-test-header',
          'forwarded_for', current_setting('request.headers', true)::json ->> 'x-forwarded-for',
          'connecting_ip', current_setting('request.headers', true)::json ->> 'cf-connecting-ip',
          'forwarded', current_setting('request.headers', true)::json ->> 'forwarded',
          'real_ip', current_setting('request.headers', true)::json ->> 'x-real-ip',
          'has_cookie', (current_setting('request.headers', true)::jsonb ? 'cookie'),
          'cookie_a', current_setting('request.cookies', true)::json ->> 'a',
          'method', current_setting('request.method', true),
          'path', current_setting('request.path', true))
      $$;
    `)
    const client = createClient(local.url, local.anonKey, {
      auth: NO_SESSION,
      global: { headers: { 'X-Test-Header': 'hello', Cookie: 'a=1; b=2' } },
    })
    const { data, error, status } = await client.rpc('test_echo', { greeting: 'ab', times: 2 })
    expect({ error, status }).toEqual({ error: null, status: 200 })
    expect(data).toEqual({
      text: 'abab',
      role: 'anon',
      claims_role: 'anon',
      header: 'hello',
      // The double plays the edge: every address header is the TCP peer.
      forwarded_for: '127.0.0.1',
      connecting_ip: '127.0.0.1',
      forwarded: null,
      real_ip: '127.0.0.1',
      has_cookie: false,
      cookie_a: '1',
      method: 'POST',
      path: '/rpc/test_echo',
    })

    // Address headers written by the client are dropped, whatever they claim.
    const forwarded = createClient(local.url, local.anonKey, {
      auth: NO_SESSION,
      global: {
        fetch: loopbackFetch('127.3.2.1'),
        headers: { 'X-Forwarded-For': '203.0.113.5, 10.0.0.7', 'X-Real-IP': '198.51.100.1', 'CF-Connecting-IP': '192.0.2.1', Forwarded: 'for=192.0.2.2' },
      },
    })
    expect(await forwarded.rpc('test_echo', { greeting: 'x' })).toMatchObject({
      data: { forwarded_for: '127.3.2.1', connecting_ip: '127.3.2.1', real_ip: '127.3.2.1', forwarded: null },
    })
  })

  it(`a visitor reaching the double directly is its peer address: sign-up ${PER_CLIENT_LIMIT + 1} is refused, another client is not`, async () => {
    // Earlier cases in this file may have signed up from 127.0.0.1 (the peer of every test request).
    await local.db.exec("delete from private.waitlist_api_attempts where action = 'sign_up'")
    try {
      const site = createWaitlistClient(local.url, local.anonKey)
      for (let i = 0; i < PER_CLIENT_LIMIT; i++) {
        expect(await joinWaitlist(site, { name: `Local ${i}`, email: email(`local${i}`) })).toEqual({ status: 'saved' })
      }
      expect(await joinWaitlist(site, { name: 'Local', email: email('local-over') })).toEqual({ status: 'rate_limited' })
      // Forging another address does not make another client.
      const forger = createClient(local.url, local.anonKey, {
        auth: NO_SESSION,
        global: { headers: { 'X-Forwarded-For': '203.0.113.99', 'CF-Connecting-IP': '203.0.113.99' } },
      })
      expect(await joinWaitlist(forger, { name: 'Forger', email: email('forger') })).toEqual({ status: 'rate_limited' })
      expect(await joinWaitlist(anonFrom({ ...local, local: true }, nextClientAddress()), { name: 'Remote', email: email('remote') })).toEqual({
        status: 'saved',
      })
      const { rows } = await local.db.query<{ n: number }>(`select count(*)::int as n from public.waitlist where email like 'local%@${runId}.example.com'`)
      expect(rows[0]?.n).toBe(PER_CLIENT_LIMIT)
    } finally {
      await local.db.exec("delete from private.waitlist_api_attempts where action = 'sign_up'")
    }
  })

  it('supports the rest of the PostgREST surface it documents (on a scratch table)', async () => {
    await local.db.exec(`
      create table public.test_notes (id int generated always as identity primary key, body text, n int, tags text[]);
      grant select, insert, update, delete on public.test_notes to service_role;
      create function public.test_notes_over(min int) returns setof public.test_notes language sql stable as $$
        select * from public.test_notes where n > min order by id
      $$;
      create function public.test_numbers(upto int) returns setof int language sql immutable as $$
        select generate_series(1, upto)
      $$;
      create function public.test_first_note() returns public.test_notes language sql stable as $$
        select * from public.test_notes order by id limit 1
      $$;
    `)
    const owner = serverClient(local.url, local.serviceRoleKey)
    const inserted = await owner
      .from('test_notes')
      .insert([
        { body: 'alpha', n: 1, tags: ['a'] },
        { body: 'beta', n: 2, tags: [] },
        { body: 'Gamma', n: 3, tags: null },
      ])
      .select('id, text:body')
    expect(inserted).toMatchObject({ status: 201, error: null, data: [{ text: 'alpha' }, { text: 'beta' }, { text: 'Gamma' }] })

    const filtered = await owner.from('test_notes').select('body', { count: 'exact' }).in('n', [1, 3]).ilike('body', '%a%').order('n', { ascending: false })
    expect(filtered).toMatchObject({ status: 200, error: null, count: 2, data: [{ body: 'Gamma' }, { body: 'alpha' }] })
    expect(await owner.from('test_notes').select('body').is('tags', null)).toMatchObject({ data: [{ body: 'Gamma' }] })
    expect(await owner.from('test_notes').select('body').not('n', 'eq', 2).order('id').range(1, 1)).toMatchObject({ data: [{ body: 'Gamma' }] })
    expect(await owner.from('test_notes').select('body').eq('n', 2).single()).toMatchObject({ status: 200, data: { body: 'beta' } })
    expect(await owner.from('test_notes').select('body').gt('n', 1).single()).toMatchObject({ status: 406, error: { code: 'PGRST116' } })
    expect(await owner.from('test_notes').select('nope')).toMatchObject({ status: 400, error: { code: '42703' } })

    expect(await owner.from('test_notes').update({ body: 'BETA' }).eq('n', 2).select('body')).toMatchObject({ status: 200, data: [{ body: 'BETA' }] })
    expect(await owner.from('test_notes').delete().lte('n', 1)).toMatchObject({ status: 204, error: null })

    expect(await owner.rpc('test_notes_over', { min: 1 })).toMatchObject({
      status: 200,
      data: [
        { body: 'BETA', n: 2 },
        { body: 'Gamma', n: 3 },
      ],
    })
    expect(await owner.rpc('test_numbers', { upto: 3 }, { get: true })).toMatchObject({ status: 200, data: [1, 2, 3] })
    expect(await owner.rpc('test_first_note')).toMatchObject({ status: 200, data: { body: 'BETA', n: 2 } })
    expect(await owner.rpc('test_numbers', { wrong: 3 })).toMatchObject({ status: 404, error: { code: 'PGRST202' } })
    // anon has no grant on the scratch table: the database, not the double, refuses.
    expect(await anon.from('test_notes').select('*')).toMatchObject({ status: 401, error: { code: '42501' } })
    expect(await owner.from('test_notes').select('*').eq('n', 'x')).toMatchObject({ status: 400, error: { code: '22P02' } })
  })

  describe('no more generous than PostgREST', () => {
    const post = (body: BodyInit, headers: Record<string, string> = {}, query = '') =>
      loopbackFetch(nextClientAddress())(`${local.url}/rest/v1/waitlist${query}`, {
        method: 'POST',
        headers: { apikey: local.anonKey, 'Content-Type': 'application/json', ...headers },
        body,
      })
    const stored = async (pattern: string) =>
      (await local.db.query<{ n: number }>(`select count(*)::int as n from public.waitlist where email like $1`, [pattern])).rows[0]?.n

    it('Prefer: return=headers-only needs to read the key back: 401 42501 for the write-only anon key, nothing stored', async () => {
      const response = await post(JSON.stringify({ name: 'Hd', email: email('headers-only'), project: '' }), { Prefer: 'return=headers-only' })
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ code: '42501', message: 'permission denied for table waitlist' })
      expect(await stored(email('headers-only'))).toBe(0)
    })

    it('on_conflict with a resolution is an upsert that the database judges (no arbiter on email: 400 42P10)', async () => {
      for (const resolution of ['ignore-duplicates', 'merge-duplicates']) {
        const response = await post(
          JSON.stringify({ name: 'Up', email: email('upsert'), project: '' }),
          { Prefer: `resolution=${resolution}` },
          '?on_conflict=email',
        )
        expect(response.status, resolution).toBe(400)
        expect(await response.json()).toMatchObject({ code: '42P10' })
      }
      // Without a resolution PostgREST ignores on_conflict: a plain insert.
      expect((await post(JSON.stringify({ name: 'Up', email: email('upsert'), project: '' }), {}, '?on_conflict=email')).status).toBe(201)
    })

    it('a body that is not valid UTF-8 -> 400 PGRST102, nothing stored (no replacement characters)', async () => {
      const body = Buffer.concat([Buffer.from(`{"name":"Bad \xff bytes","email":"${email('utf8')}","project":""}`, 'latin1')])
      const response = await post(body)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'PGRST102' })
      expect(await stored(email('utf8'))).toBe(0)
    })

    it('CSV and form bodies: 501 LOCAL501, said plainly; other types 415 PGRST107', async () => {
      const csv = await post(`name,email,project\nCsv,${email('csv')},\n`, { 'Content-Type': 'text/csv' })
      expect(csv.status).toBe(501)
      expect(await csv.json()).toMatchObject({ code: 'LOCAL501', message: expect.stringMatching(/text\/csv/) })
      const form = await post('name=x', { 'Content-Type': 'application/x-www-form-urlencoded' })
      expect(form.status).toBe(501)
      const plain = await post('hello', { 'Content-Type': 'text/plain' })
      expect(plain.status).toBe(415)
      expect(await plain.json()).toMatchObject({ code: 'PGRST107' })
      expect(await stored(email('csv'))).toBe(0)
    })

    it('unknown preferences: ignored by default, 400 PGRST122 with handling=strict; missing=default is 501', async () => {
      const row = (label: string) => JSON.stringify({ name: 'Pref', email: email(label), project: '' })
      expect((await post(row('pref-lenient'), { Prefer: 'return=everything' })).status).toBe(201)
      const strict = await post(row('pref-strict'), { Prefer: 'handling=strict, return=everything' })
      expect(strict.status).toBe(400)
      expect(await strict.json()).toMatchObject({ code: 'PGRST122' })
      expect((await post(row('pref-missing'), { Prefer: 'missing=default' })).status).toBe(501)
      expect(await stored(email('pref-strict'))).toBe(0)
    })
  })

  it('the owner reads past the 1000-row page cap: one page of 5,000 is one value, and keyset pages of 400 miss nobody', async () => {
    await local.db.query(
      `insert into public.waitlist (name, email) select 'Bulk ' || i, 'bulk' || i || '+${runId}@example.com' from generate_series(1, 1005) as i`,
    )
    const { count } = await local.db.query<{ count: number }>('select count(*)::int as count from public.waitlist').then((result) => result.rows[0]!)
    for (const pageSize of [5000, 400]) {
      const pages: ListedEntry[][] = []
      for await (const page of waitlistPages(serverClient(local.url, local.serviceRoleKey), pageSize)) pages.push(page)
      const entries = pages.flat()
      expect(pages.length).toBe(Math.ceil(count / pageSize))
      expect(entries.filter((entry) => entry.email.startsWith('bulk'))).toHaveLength(1005)
      expect(entries).toHaveLength(count)
      expect(new Set(entries.map((entry) => entry.id)).size).toBe(count)
    }
  })

  it('joinWaitlist reports a network failure as "Failed to save to waitlist"', async () => {
    // A port that was free a moment ago: nothing listens there now.
    const probe = createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const { port } = probe.address() as AddressInfo
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const url = `http://127.0.0.1:${port}`
    expect(await joinWaitlist(createWaitlistClient(url, local.anonKey), { name: 'Ned', email: email('offline') })).toEqual({
      status: 'failed',
      message: 'Failed to save to waitlist',
    })
  })

  it('answers its health check without a key, and unknown paths with 404', async () => {
    expect((await fetch(`${local.url}/health`)).status).toBe(200)
    const unknown = await fetch(`${local.url}/storage/v1/bucket`, { headers: { apikey: local.anonKey } })
    expect(unknown.status).toBe(404)
  })
})
