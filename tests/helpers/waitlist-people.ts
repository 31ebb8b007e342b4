/**
 * People on the waitlist as the database tests need them: sign up through the public key, "receive"
 * the confirmation e-mail (its token's hash stored as the dispatcher would), confirm, and use the
 * own-data functions with that token. Every call is an API request from a different network unless
 * a test names one, so rate limits bite only where a test means them to.
 */
import { createHash, randomBytes } from 'node:crypto'
import { expect } from 'vitest'
import { runAs, type WaitlistDb } from './waitlist-db'

export const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex')
export const newToken = () => randomBytes(32).toString('base64url')

export function waitlistPeople(db: () => WaitlistDb, domain: string) {
  let counter = 0
  const address = () => `person${++counter}@${domain}`
  let ip = 0
  const api = (client = `203.0.113.${(ip++ % 250) + 1}`) => ({ headers: { 'x-forwarded-for': client } })

  /** One value from a function the public key may call; a database error throws. */
  async function call<T>(sql: string, params: unknown[], client?: string): Promise<T | null> {
    const result = await runAs<{ value: T | null }>(db(), 'anon', sql, params, { keep: true, request: api(client) })
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
    return result.rows[0]?.value ?? null
  }

  const signUp = (email: string, ref?: string | null, name = 'Ada', client?: string) =>
    runAs(db(), 'anon', 'insert into public.waitlist (name, email, project, ref) values ($1, $2, $3, $4)', [name, email, 'Acme', ref ?? null], {
      keep: true,
      request: api(client),
    })

  /** What the dispatcher does when it sends the confirmation e-mail: a token whose hash is stored. */
  async function mailToken(email: string): Promise<string> {
    const token = newToken()
    await db().query(
      `insert into private.waitlist_tokens (token_hash, entry_id, expires_at) select $2, id, now() + interval '30 days' from public.waitlist where email_key = lower($1)`,
      [email, sha256(token)],
    )
    return token
  }

  const confirm = (token: string) => call<string>('select public.waitlist_confirm($1) as value', [token])

  /** Signs up (from network `client` when given), "receives" the e-mail and opens its link: a confirmed entry and its token. */
  async function joined(email = address(), ref?: string | null, name?: string, client?: string): Promise<{ email: string; token: string }> {
    expect(await signUp(email, ref, name, client)).toEqual({ ok: true, rows: [] })
    const token = await mailToken(email)
    expect(await confirm(token)).toBe('confirmed')
    return { email, token }
  }

  const exportMe = (token: string) => call<Record<string, unknown>>('select public.waitlist_export_me($1) as value', [token])
  const deleteMe = async (token: string, client?: string) => (await call<boolean>('select public.waitlist_delete_me($1) as value', [token], client)) ?? false

  return { address, api, call, signUp, mailToken, confirm, joined, exportMe, deleteMe }
}

/**
 * Every base table of the public and private schemas (found from the catalogue, not listed, so a
 * table added later is searched too) with the rows whose JSON holds any of `needles`
 * (case-insensitive): where a person's id, address or name is still stored.
 */
export async function rowsHolding(db: WaitlistDb, needles: string[]): Promise<{ table: string; row: Record<string, unknown> }[]> {
  const tables = await db.query<{ schema: string; name: string }>(`
    select table_schema as schema, table_name as name from information_schema.tables
     where table_schema in ('public', 'private') and table_type = 'BASE TABLE' order by 1, 2`)
  expect(tables.rows.length).toBeGreaterThan(1)
  const found: { table: string; row: Record<string, unknown> }[] = []
  for (const { schema, name } of tables.rows) {
    const { rows } = await db.query<{ row: Record<string, unknown> }>(
      `select to_jsonb(t) as row from ${schema}.${name} t where exists (select 1 from unnest($1::text[]) n where strpos(lower(to_jsonb(t)::text), lower(n)) > 0)`,
      [needles],
    )
    found.push(...rows.map((row) => ({ table: `${schema}.${name}`, row: row.row })))
  }
  return found
}
