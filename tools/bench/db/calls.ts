/**
 * The public functions timed as PostgREST runs them (tools/supabase-local/real-postgres.ts
 * apiRequest: a transaction on the `authenticator` pool, `set local role`, request.headers and
 * request.jwt.claims, the role's statement timeout), each call from its own network so no
 * per-network limit decides. Each sample is the wall time of one whole request transaction, one
 * call at a time, except the 50 concurrent confirmations (all started together, until the last
 * answers).
 *
 * The people each call needs are picked at random from the list by status and given their links
 * as the dispatcher would have (the SHA-256 of a fresh token in private.waitlist_tokens,
 * waitlist_unsubscribe_tokens or waitlist_invitation_tokens); every destructive call gets its own.
 */
import { createHash, randomBytes } from 'node:crypto'
import type pg from 'pg'
import { BENCH_QUESTIONS } from './bulk'
import { apiRequest } from '../../supabase-local/real-postgres'
import { CONCURRENT_CALL, type CallName } from './targets'

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex')
const newToken = () => randomBytes(32).toString('base64url')

/** Another network for every request: 10.a.b.7, a distinct /24 for 65,536 calls. */
function networks(): () => Record<string, string> {
  let n = Math.floor(Math.random() * 60_000)
  return () => {
    n = (n + 1) % 65_536
    const ip = `10.${n >> 8}.${n & 255}.7`
    return { 'cf-connecting-ip': ip, 'x-forwarded-for': ip }
  }
}

export interface Timed {
  call: CallName
  samples: number[]
  /** Calls that failed (e.g. cut by the role's statement timeout), the first error's words. */
  failures: number
  error?: string
}

interface Person {
  id: string
  email: string
}

/** `count` random entries with this status (none twice across calls: `taken`). */
async function pick(owner: pg.Client, status: string, count: number, taken: Set<string>): Promise<Person[]> {
  const { rows } = await owner.query<Person>(
    `select id, email from public.waitlist where status = $1 and not (id = any($2::uuid[])) order by random() limit $3`,
    [status, [...taken], count],
  )
  if (rows.length < count) throw new Error(`The list has ${rows.length} ${status} entries left, the bench needs ${count}`)
  for (const row of rows) taken.add(row.id)
  return rows
}

/** Link tokens for these people, stored as the dispatcher stores them (hash only). */
async function links(owner: pg.Client, people: Person[], insert: string): Promise<string[]> {
  const tokens = people.map(() => newToken())
  await owner.query(insert, [people.map((person) => person.id), tokens.map(sha256)])
  return tokens
}

const TOKEN_LINKS = `insert into private.waitlist_tokens (token_hash, entry_id, expires_at)
  select h, e, now() + interval '30 days' from unnest($1::uuid[], $2::text[]) t (e, h)`
const UNSUBSCRIBE_LINKS = `insert into private.waitlist_unsubscribe_tokens (token_hash, entry_id, scope)
  select h, e, 'waitlist' from unnest($1::uuid[], $2::text[]) t (e, h)`
const INVITATION_LINKS = `insert into private.waitlist_invitation_tokens (token_hash, invitation_id)
  select h, i.id from unnest($1::uuid[], $2::text[]) t (e, h)
  join private.waitlist_invitations i on i.entry_id = t.e and i.redeemed_at is null and i.expired_at is null`

export interface CallOptions {
  /** Samples per call (each destructive one uses as many people). */
  samples: number
  /** Rounds of 50 concurrent confirmations. */
  rounds: number
  /** Tag of this size's sign-ups' addresses. */
  tag: string
}

/**
 * Every call at the list's current size. The invitations run last (1,000 product managers, then
 * 10,000 of the line): they take people out of the line.
 */
export async function timeCalls(api: pg.Pool, owner: pg.Client, { samples, rounds, tag }: CallOptions, log: (line: string) => void): Promise<Timed[]> {
  const from = networks()
  const taken = new Set<string>()
  const timed: Timed[] = []

  async function request(sql: string, params: unknown[], role: string, expect?: (rows: { value: unknown }[]) => boolean): Promise<number> {
    const started = performance.now()
    const answer = await apiRequest<{ value: unknown }>(api, from(), sql, params, role)
    const ms = performance.now() - started
    if (!answer.ok) throw new Error(`${sql} failed: ${answer.code} ${answer.message}`)
    if (expect && !expect(answer.rows)) throw new Error(`${sql} answered ${JSON.stringify(answer.rows[0]?.value)}`)
    return ms
  }
  /** A failed call (a statement timeout, say) is counted and its time kept: the bench goes on. */
  async function series(call: CallName, inputs: unknown[][], sql: string, role = 'anon', expect?: (rows: { value: unknown }[]) => boolean): Promise<void> {
    const measured: number[] = []
    let failures = 0
    let error: string | undefined
    for (const params of inputs) {
      const started = performance.now()
      try {
        measured.push(await request(sql, params, role, expect))
      } catch (problem) {
        measured.push(performance.now() - started)
        failures++
        error ??= problem instanceof Error ? problem.message : String(problem)
      }
    }
    timed.push({ call, samples: measured, failures, ...(error ? { error } : {}) })
    log(`  ${call}: ${measured.length} calls${failures ? `, ${failures} failed (${error})` : ''}`)
  }
  const value = (wanted: unknown) => (rows: { value: unknown }[]) => JSON.stringify(rows[0]?.value) === JSON.stringify(wanted)

  /**
   * Issue #68: a rung just above every count in the list (so publishing it grants nobody and
   * queues nothing the outbox claim would then meet), `samples` referrers one credit below it,
   * and a pending friend of each: each friend's confirmation earns their referrer the rung.
   * Then those referrers' own pages, and the console's counts. The ladder is taken down after
   * (what was earned stays, as it would).
   */
  async function rewards(): Promise<void> {
    const { rows } = await owner.query<{ top: number }>('select coalesce(max(referral_credits), 0)::int as top from public.waitlist')
    const threshold = Math.min(rows[0]!.top + 1, 10_000)
    // A rung of its own at each size: someone who earned an earlier size's keeps it, and earns this one.
    const rung = `bench-rung-${tag}`
    await owner.query('select public.waitlist_replace_rewards($1::jsonb)', [JSON.stringify([{ key: rung, threshold, kind: 'places', places: 10 }])])
    const referrers = await pick(owner, 'confirmed', samples, taken)
    await owner.query('update public.waitlist set referral_credits = $2 where id = any($1::uuid[])', [referrers.map((person) => person.id), threshold - 1])
    const { rows: friends } = await owner.query<Person>(
      `insert into public.waitlist (name, email, project, ref)
       select 'Bench friend', 'friend-' || $2 || '-' || n || '@example.org', '', r.referral_code
         from unnest($1::uuid[]) with ordinality t (id, n) join public.waitlist r on r.id = t.id
       returning id, email`,
      [referrers.map((person) => person.id), tag],
    )
    await series(
      'confirm earning a rung',
      (await links(owner, friends, TOKEN_LINKS)).map((token) => [token]),
      confirmSql,
      'anon',
      value('confirmed'),
    )
    const { rows: earned } = await owner.query<{ n: number }>(
      `select count(*)::int as n from private.waitlist_rewards_earned where rung = $2 and entry_id = any($1::uuid[])`,
      [referrers.map((person) => person.id), rung],
    )
    if (earned[0]!.n !== referrers.length) throw new Error(`${earned[0]!.n} of ${referrers.length} referrers earned the bench's rung`)
    await series(
      'own page with rewards',
      (await links(owner, referrers, TOKEN_LINKS)).map((token) => [token]),
      'select public.waitlist_me($1) as value',
      'anon',
      (rows) => ((rows[0]?.value as { rewards?: unknown[] })?.rewards?.length ?? 0) >= 1,
    )
    await series(
      'reward counts',
      range(samples).map(() => []),
      'select public.waitlist_reward_counts() as value',
      'service_role',
    )
    await owner.query(`select public.waitlist_replace_rewards('[]'::jsonb)`)
  }
  const range = (n: number) => Array.from({ length: n }, (_, i) => i)
  /**
   * Issue #69: one research task published, `samples` confirmed people answering it from their own
   * page (the row locked, the answers judged, the places added, the webhook queued), then one entry
   * in 256 opted in to the leaderboard and its refresh read as the site's server reads it. The
   * task is taken down after; the answers and the board stay, as they would.
   */
  async function research(): Promise<void> {
    const task = `bench-task-${tag}`
    const labels = { en: 'Bench' }
    await owner.query('select public.waitlist_replace_tasks($1::jsonb)', [
      JSON.stringify([
        {
          key: task,
          places: 10,
          titles: labels,
          questions: [
            {
              key: 'method',
              kind: 'one',
              labels,
              options: [
                { key: 'interviews', labels },
                { key: 'surveys', labels },
              ],
            },
            { key: 'hardest', kind: 'text', labels, options: [] },
          ],
        },
      ]),
    ])
    const answering = await pick(owner, 'confirmed', samples, taken)
    await series(
      'complete a task',
      (await links(owner, answering, TOKEN_LINKS)).map((token) => [token, task, JSON.stringify({ method: 'surveys', hardest: 'finding the right people' })]),
      'select public.waitlist_complete_task($1, $2, $3::jsonb) as value',
      'anon',
      (rows) => (rows[0]?.value as { status?: string })?.status === 'completed',
    )
    await owner.query(
      `update public.waitlist set board_name = 'B. ' || left(id::text, 4), board_at = now() where id::text like '00%' and status <> 'pending' and board_name is null`,
    )
    await series(
      'leaderboard refresh',
      range(samples).map(() => []),
      'select coalesce(jsonb_agg(l), $$[]$$) as value from public.waitlist_leaderboard(20) l',
      'service_role',
    )
    await owner.query(`select public.waitlist_replace_tasks('[]'::jsonb)`)
  }

  // Sign-ups answer the questions published, as the site's form sends them: the database checks each answer.
  await owner.query('select public.waitlist_replace_questions($1::jsonb)', [JSON.stringify(BENCH_QUESTIONS)])
  await series(
    'sign-up',
    range(samples).map((i) => [`Bench ${i}`, `signup-${tag}-${i}@example.org`, JSON.stringify({ role: i % 2 ? 'founder' : 'product-manager' })]),
    `insert into public.waitlist (name, email, project, utm_source, landing_path, language, answers) values ($1, $2, '', 'bench', '/waitlist', 'en', $3::jsonb)`,
  )

  const pending = await pick(owner, 'pending', samples + 50 * (rounds + 1), taken)
  const pendingTokens = await links(owner, pending, TOKEN_LINKS)
  const confirmSql = 'select public.waitlist_confirm($1) as value'
  await series(
    'confirm',
    pendingTokens.slice(0, samples).map((token) => [token]),
    confirmSql,
    'anon',
    value('confirmed'),
  )

  const confirmed = await pick(owner, 'confirmed', samples, taken)
  const confirmedTokens = await links(owner, confirmed, TOKEN_LINKS)
  await series(
    'own page',
    confirmedTokens.map((token) => [token]),
    'select public.waitlist_me($1) as value',
    'anon',
    (rows) => typeof (rows[0]?.value as { place?: unknown })?.place === 'number',
  )
  await series(
    'export own data',
    confirmedTokens.map((token) => [token]),
    'select public.waitlist_export_me($1) as value',
    'anon',
    (rows) => rows[0]?.value !== null,
  )

  await rewards()
  await research()

  const asking = await pick(owner, 'confirmed', samples, taken)
  await series(
    'request link',
    asking.map((person) => [person.email]),
    'select public.waitlist_request_link($1) as value',
  )

  const unsubscribing = await pick(owner, 'confirmed', samples, taken)
  await series(
    'unsubscribe',
    (await links(owner, unsubscribing, UNSUBSCRIBE_LINKS)).map((token) => [token]),
    'select public.waitlist_unsubscribe($1) as value',
    'service_role',
    value(true),
  )

  const leaving = await pick(owner, 'confirmed', samples, taken)
  await series(
    'delete own data',
    (await links(owner, leaving, TOKEN_LINKS)).map((token) => [token]),
    'select public.waitlist_delete_me($1) as value',
    'anon',
    value(true),
  )

  const invited = await pick(owner, 'invited', samples, taken)
  await series(
    'redeem invitation',
    (await links(owner, invited, INVITATION_LINKS)).map((token) => [token]),
    'select public.waitlist_redeem_invitation($1) as value',
    'service_role',
    (rows) => !(rows[0]?.value as { error?: string })?.error,
  )

  await series(
    'line head',
    range(samples).map(() => [20]),
    'select public.waitlist_line_head($1) as value',
    'service_role',
  )

  // One untimed round first: PostgREST keeps its connections, so a function is planned once per
  // connection, not at every burst; a pool of fresh connections would time that planning instead.
  const burst = (round: number) => pendingTokens.slice(samples + round * 50, samples + (round + 1) * 50)
  await Promise.all(burst(rounds).map((token) => request(confirmSql, [token], 'anon', value('confirmed'))))
  const rounds50: number[] = []
  for (let round = 0; round < rounds; round++) {
    const tokens = burst(round)
    const started = performance.now()
    await Promise.all(tokens.map((token) => request(confirmSql, [token], 'anon', value('confirmed'))))
    rounds50.push(performance.now() - started)
  }
  timed.push({ call: CONCURRENT_CALL, samples: rounds50, failures: 0 })
  log(`  ${CONCURRENT_CALL}: ${rounds} rounds`)

  timed.push(await outboxClaim(owner, Math.min(samples, 20), request))
  log('  outbox claim: done')

  await series('answer counts', [[]], 'select pg_catalog.json_agg(c) as value from public.waitlist_answer_counts() c', 'service_role')
  // A tenth of the list are product managers: the next 1,000 of them read about 10,000 of the line.
  const managers = JSON.stringify({ role: ['product-manager'] })
  await series('segment invite 1,000 (dry run)', [[1_000, true, managers]], 'select public.waitlist_invite_next($1, $2, $3::jsonb) as value', 'service_role')
  await series('segment invite 1,000', [[1_000, false, managers]], 'select public.waitlist_invite_next($1, $2, $3::jsonb) as value', 'service_role')
  await series('invite 10,000 (dry run)', [[10_000, true]], 'select public.waitlist_invite_next($1, $2) as value', 'service_role')
  await series('invite 10,000', [[10_000, false]], 'select public.waitlist_invite_next($1, $2) as value', 'service_role')
  return timed
}

/**
 * The dispatcher's claim with 100,000 messages due: access e-mails queued for the confirmed (as
 * many per person as it takes on a small list), the e-mail caps lifted so every claim takes a
 * full batch. What the claims took is put back and the queued messages are removed after.
 */
async function outboxClaim(owner: pg.Client, claims: number, request: (sql: string, params: unknown[], role: string) => Promise<number>): Promise<Timed> {
  const { rows } = await owner.query<{ started: Date }>('select now() as started')
  const started = rows[0]?.started
  await owner.query(
    `insert into public.waitlist_outbox (entry_id, kind)
     select w.id, 'access_email'
       from generate_series(1, ceil(100000.0 / greatest(1, (select count(*) from public.waitlist where status = 'confirmed')))::int) r
      cross join (select id from public.waitlist where status = 'confirmed') w
      limit 100000`,
  )
  await owner.query('analyze public.waitlist_outbox')
  const samples: number[] = []
  try {
    for (let i = 0; i < claims; i++) samples.push(await request('select public.waitlist_outbox_claim(20) as value', [], 'service_role'))
  } finally {
    await owner.query(`delete from public.waitlist_outbox where kind = 'access_email' and created_at >= $1`, [started])
  }
  return { call: 'outbox claim (100,000 due)', samples, failures: 0 }
}
