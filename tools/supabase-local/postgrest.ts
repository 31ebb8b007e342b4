/**
 * The PostgREST half of the local double: turns one REST request into SQL run
 * as the request's role inside a transaction, the way PostgREST does it, and
 * the result (or Postgres error) into PostgREST's HTTP response.
 *
 * Only what this project's clients use is implemented: insert (object or
 * array, `columns`, `Prefer: return=minimal|headers-only|representation`,
 * `on_conflict` with `resolution=`), read (`select`, simple filters,
 * `order`, `limit`, `offset`, `count=exact`), update and delete with simple
 * filters, and RPC with named arguments. What PostgREST does and this does
 * not (CSV and form bodies, `missing=default`, other counts) answers 501 with
 * code LOCAL501, never a silent approximation. Table and column names are
 * checked against the catalog before being quoted into SQL; every value is a
 * bind parameter.
 */
import { errors, HttpError, isPgError, pgErrorResponse } from './errors'
import { requestTimeoutParam, withinStatementTimeout } from './statement-timeouts'

/** The SQL a request needs: one statement, or a transaction (PGlite has both; a `pg` Pool gets ./real-postgres.ts's poolDatabase). */
export interface RestQueries {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>
}
export interface RestDatabase extends RestQueries {
  transaction<T>(work: (tx: RestQueries) => Promise<T>): Promise<T>
}

export interface RestRequest {
  method: string
  /** The path below /rest/v1, e.g. "/waitlist", "/rpc/fn" or "/". */
  path: string
  query: URLSearchParams
  /** The header lines as PostgREST receives them (after the gateway): lower-cased names, in order. */
  headerLines: readonly (readonly [string, string])[]
  body: string
  role: string
  claims: Record<string, unknown>
}

/** A request as the handlers below read it: headers by name, repeated lines joined like Node does. */
interface ParsedRequest extends RestRequest {
  headers: Record<string, string>
}

export interface RestResponse {
  status: number
  headers: Record<string, string>
  body: string
}

export interface PostgrestOptions {
  /** PostgREST's db-max-rows; Supabase's default (config.toml [api] max_rows) is 1000. */
  maxRows: number
  /** The roles the JWT may name, like the authenticator role's memberships on Supabase. */
  roles: readonly string[]
  anonRole: string
}

const JSON_TYPE = 'application/json; charset=utf-8'
const SCHEMA = 'public'
const RESERVED_PARAMS = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict', 'apikey'])

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

function json(status: number, body: string, headers: Record<string, string> = {}): RestResponse {
  return { status, headers: { 'Content-Type': JSON_TYPE, ...headers }, body }
}

// ---------------------------------------------------------------------------
// Catalog ("schema cache")

interface Table {
  name: string
  columns: Set<string>
}

async function findTable(db: RestDatabase, name: string): Promise<Table | null> {
  const { rows } = await db.query<{ column: string | null }>(
    `select a.attname as column
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'v', 'm', 'f', 'p')`,
    [SCHEMA, name],
  )
  if (rows.length === 0) return null
  return { name, columns: new Set(rows.flatMap((row) => (row.column === null ? [] : [row.column]))) }
}

function similarity(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0] as number
    previous[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j] as number
      previous[j] = Math.min(above + 1, (previous[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return 1 - (previous[b.length] as number) / Math.max(a.length, b.length, 1)
}

/** PostgREST suggests a table only when it is a close match (its fuzzy score >= 0.75). */
async function suggestTable(db: RestDatabase, name: string): Promise<string | null> {
  const { rows } = await db.query<{ name: string }>(
    `select c.relname as name from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p')`,
    [SCHEMA],
  )
  let best: { name: string; score: number } | null = null
  for (const row of rows) {
    const score = similarity(name, row.name)
    if (score >= 0.75 && (!best || score > best.score)) best = { name: row.name, score }
  }
  return best?.name ?? null
}

interface Routine {
  name: string
  inputs: { name: string; type: string }[]
  defaults: number
  returnsSet: boolean
  returnsVoid: boolean
  returnsComposite: boolean
}

async function findRoutines(db: RestDatabase, name: string): Promise<Routine[]> {
  const { rows } = await db.query<{
    argnames: string[] | null
    argmodes: string[] | null
    argtypes: string[]
    nargs: number
    ndefaults: number
    retset: boolean
    rettype: string
    typtype: string
  }>(
    `select p.proargnames as argnames, p.proargmodes::text[] as argmodes,
            array(select pg_catalog.format_type(t, null) from unnest(p.proargtypes) as t) as argtypes,
            p.pronargs::int as nargs, p.pronargdefaults::int as ndefaults, p.proretset as retset,
            pg_catalog.format_type(p.prorettype, null) as rettype, t.typtype::text as typtype
       from pg_catalog.pg_proc p
       join pg_catalog.pg_namespace n on n.oid = p.pronamespace
       join pg_catalog.pg_type t on t.oid = p.prorettype
      where n.nspname = $1 and p.proname = $2 and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype`,
    [SCHEMA, name],
  )
  return rows.map((row) => {
    // proargnames covers OUT/TABLE arguments too; proargtypes only the input ones.
    const names = row.argnames ?? []
    const modes = row.argmodes ?? []
    const inputNames = modes.length ? names.filter((_, i) => ['i', 'b', 'v'].includes(modes[i] ?? 'i')) : names
    return {
      name,
      inputs: row.argtypes.slice(0, row.nargs).map((type, i) => ({ name: inputNames[i] ?? '', type })),
      defaults: row.ndefaults,
      returnsSet: row.retset,
      returnsVoid: row.rettype === 'void',
      // RETURNS TABLE (or several OUT arguments) returns rows of a record type: objects, as PostgREST answers.
      returnsComposite: row.typtype === 'c' || (row.rettype === 'record' && modes.some((mode) => mode === 't' || mode === 'o')),
    }
  })
}

// ---------------------------------------------------------------------------
// Query string

interface SelectItem {
  column: string
  alias: string
}

function parseSelect(value: string | null, table: Table): SelectItem[] | '*' {
  const raw = (value ?? '*').trim()
  if (raw === '*' || raw === '') return '*'
  return raw.split(',').map((part) => {
    const item = part.trim()
    const match = /^(?:([A-Za-z_][A-Za-z0-9_]*):)?([A-Za-z_][A-Za-z0-9_]*)$/.exec(item)
    if (!match) {
      throw errors.queryParam('"failed to parse select parameter (' + raw + ')"', `unexpected "${item}"`)
    }
    const column = match[2] as string
    if (!table.columns.has(column)) throw errors.undefinedColumn(table.name, column)
    return { column, alias: match[1] ?? column }
  })
}

function selectList(items: SelectItem[] | '*'): string {
  if (items === '*') return '*'
  return items.map((item) => (item.alias === item.column ? quoteIdent(item.column) : `${quoteIdent(item.column)} as ${quoteIdent(item.alias)}`)).join(', ')
}

const COMPARISONS: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }

/** Builds the WHERE clause from `column=op.value` parameters; values are appended to `params`. */
function parseFilters(query: URLSearchParams, table: Table, params: unknown[], ignore: Set<string> = RESERVED_PARAMS): string {
  const conditions: string[] = []
  for (const [column, expression] of query) {
    if (ignore.has(column)) continue
    if (!table.columns.has(column)) throw errors.undefinedColumn(table.name, column)
    const match = /^(not\.)?([a-z]+)\.(.*)$/s.exec(expression)
    if (!match) throw errors.queryParam(`"failed to parse filter (${expression})"`, `unexpected "${expression}" expecting operator`)
    const negate = match[1] !== undefined
    const op = match[2] as string
    const value = match[3] as string
    const col = quoteIdent(column)
    let condition: string
    if (op in COMPARISONS) {
      params.push(value)
      condition = `${col} ${COMPARISONS[op]} $${params.length}`
    } else if (op === 'like' || op === 'ilike') {
      params.push(value.replaceAll('*', '%'))
      condition = `${col}::text ${op} $${params.length}`
    } else if (op === 'is') {
      const operand = { null: 'null', not_null: 'not null', true: 'true', false: 'false', unknown: 'unknown' }[value]
      if (!operand) throw errors.queryParam(`"failed to parse filter (${expression})"`, `unexpected "${value}" expecting null or boolean`)
      condition = `${col} is ${operand}`
    } else if (op === 'in') {
      const list = /^\((.*)\)$/s.exec(value)
      if (!list) throw errors.queryParam(`"failed to parse filter (${expression})"`, 'unexpected value expecting "("')
      const items = (list[1] as string).match(/"(?:[^"\\]|\\.)*"|[^,]+/g) ?? []
      params.push(items.map((item) => (item.startsWith('"') ? item.slice(1, -1).replace(/\\(.)/g, '$1') : item)))
      condition = `${col} = any($${params.length})`
    } else {
      throw errors.queryParam(`"failed to parse filter (${expression})"`, `unexpected "${op}" expecting operator`)
    }
    conditions.push(negate ? `not (${condition})` : condition)
  }
  return conditions.length ? ` where ${conditions.join(' and ')}` : ''
}

function parseOrder(value: string | null, table: Table): string {
  if (!value) return ''
  const terms = value.split(',').map((term) => {
    const [column = '', ...modifiers] = term.trim().split('.')
    if (!table.columns.has(column)) throw errors.undefinedColumn(table.name, column)
    let sql = quoteIdent(column)
    for (const modifier of modifiers) {
      const keyword = { asc: 'asc', desc: 'desc', nullsfirst: 'nulls first', nullslast: 'nulls last' }[modifier]
      if (!keyword)
        throw errors.queryParam(`"failed to parse order (${value})"`, `unexpected "${modifier}" expecting "asc", "desc", "nullsfirst" or "nullslast"`)
      sql += ` ${keyword}`
    }
    return sql
  })
  return ` order by ${terms.join(', ')}`
}

function parseCount(name: string, value: string | null): number | undefined {
  if (value === null) return undefined
  if (!/^\d+$/.test(value)) throw errors.queryParam(`"failed to parse ${name} parameter (${value})"`, `unexpected "${value}" expecting digit`)
  return Number(value)
}

// PostgREST's preferences and their values; anything else is ignored, or refused with handling=strict.
const PREFERENCES: Record<string, readonly string[]> = {
  return: ['minimal', 'headers-only', 'representation'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  handling: ['strict', 'lenient'],
  tx: ['commit', 'rollback'],
  timezone: [],
  'max-affected': [],
}

function parsePrefer(headers: Record<string, string>): Map<string, string> {
  const prefer = new Map<string, string>()
  const invalid: string[] = []
  for (const part of (headers.prefer ?? '').split(',')) {
    const text = part.trim()
    if (!text) continue
    const [key = '', value = ''] = text.split('=')
    const allowed = PREFERENCES[key]
    const known = allowed !== undefined && (allowed.length === 0 ? value !== '' : allowed.includes(value))
    if (!known) {
      invalid.push(text)
      continue
    }
    // PostgREST keeps the first occurrence of a preference.
    if (!prefer.has(key)) prefer.set(key, value)
  }
  if (prefer.get('handling') === 'strict' && invalid.length) throw errors.invalidPreferences(invalid)
  if (prefer.get('count') === 'planned' || prefer.get('count') === 'estimated') throw errors.notImplemented(`Prefer: count=${prefer.get('count')}`)
  if (prefer.get('missing') === 'default') throw errors.notImplemented('Prefer: missing=default')
  if (prefer.has('max-affected')) throw errors.notImplemented('Prefer: max-affected')
  return prefer
}

function wantsObject(headers: Record<string, string>): boolean {
  return (headers.accept ?? '').includes('application/vnd.pgrst.object+json')
}

// ---------------------------------------------------------------------------
// Body

// Bodies PostgREST accepts for tables and this double does not parse.
const UNIMPLEMENTED_BODY_TYPES = new Set(['text/csv', 'application/x-www-form-urlencoded'])

function parseJsonBody(request: ParsedRequest): unknown {
  const type = (request.headers['content-type'] ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? ''
  if (UNIMPLEMENTED_BODY_TYPES.has(type)) throw errors.notImplemented(`${type} request bodies`)
  if (type !== 'application/json') throw errors.unsupportedMediaType(type)
  try {
    return JSON.parse(request.body)
  } catch {
    throw errors.invalidBody('Empty or invalid json')
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The columns an insert writes: from `?columns=`, else the body's keys, which must agree across rows. */
function payloadColumns(body: unknown, columnsParam: string | null, table: Table): string[] {
  let columns: string[]
  if (columnsParam !== null) {
    columns = columnsParam.split(',').map((column) => column.trim().replace(/^"(.*)"$/, '$1'))
  } else if (Array.isArray(body)) {
    const first = body[0]
    if (first === undefined) return []
    if (!isRecord(first)) throw errors.invalidBody('All object keys must match')
    columns = Object.keys(first)
    const expected = [...columns].sort().join('\u0000')
    if (!body.every((row) => isRecord(row) && Object.keys(row).sort().join('\u0000') === expected)) {
      throw errors.invalidBody('All object keys must match')
    }
  } else if (isRecord(body)) {
    columns = Object.keys(body)
  } else {
    columns = []
  }
  for (const column of columns) {
    if (!table.columns.has(column)) throw errors.columnNotFound(table.name, column)
  }
  return columns
}

// ---------------------------------------------------------------------------
// Execution

interface ResultSet {
  n: number
  body: string
  first: string | null
}

const AGGREGATE = `count(*)::int as n, coalesce(json_agg(_pgrst_t), '[]')::text as body, (json_agg(_pgrst_t) -> 0)::text as first`

/**
 * request.headers exactly as PostgREST builds it (ApiRequest iHeaders, then a HashMap turned
 * into JSON): every header line except Cookie, which goes to request.cookies instead, and for a
 * name sent more than once the LAST line wins (not Node's comma-joined value).
 */
export function requestHeadersSetting(lines: RestRequest['headerLines']): string {
  const headers: Record<string, string> = {}
  for (const [name, value] of lines) if (name !== 'cookie') headers[name] = value
  return JSON.stringify(headers)
}

/**
 * Runs `work` as the request's role with PostgREST's transaction-scoped
 * settings, so policies and functions can read request.jwt.claims,
 * request.headers, request.method, request.path and request.cookies, and under the
 * role's statement timeout as on Supabase (statement-timeouts.ts).
 */
async function asRequestRole<T>(db: RestDatabase, request: ParsedRequest, work: (tx: RestQueries) => Promise<T>): Promise<T> {
  const cookies: Record<string, string> = {}
  for (const pair of (request.headers.cookie ?? '').split(';')) {
    const index = pair.indexOf('=')
    if (index > 0) cookies[pair.slice(0, index).trim()] = pair.slice(index + 1).trim()
  }
  return db.transaction(async (tx) => {
    await tx.query(
      `select set_config('search_path', $1, true), set_config('request.jwt.claims', $2, true),
              set_config('request.method', $3, true), set_config('request.path', $4, true),
              set_config('request.headers', $5, true), set_config('request.cookies', $6, true),
              set_config('role', $7, true), set_config('statement_timeout', $8, true)`,
      [
        SCHEMA,
        JSON.stringify(request.claims),
        request.method,
        request.path,
        requestHeadersSetting(request.headerLines),
        JSON.stringify(cookies),
        request.role,
        requestTimeoutParam(request.role),
      ],
    )
    return withinStatementTimeout(request.role, () => work(tx))
  })
}

async function resultSet(tx: RestQueries, sql: string, params: unknown[]): Promise<ResultSet> {
  const { rows } = await tx.query<ResultSet>(sql, params)
  return rows[0] ?? { n: 0, body: '[]', first: null }
}

function representation(request: ParsedRequest, result: ResultSet, status: number, headers: Record<string, string>): RestResponse {
  if (wantsObject(request.headers)) {
    if (result.n !== 1) throw errors.singularity(result.n)
    return json(status, result.first ?? 'null', headers)
  }
  return json(status, result.body, headers)
}

async function read(db: RestDatabase, request: ParsedRequest, table: Table, options: PostgrestOptions): Promise<RestResponse> {
  const params: unknown[] = []
  const columns = selectList(parseSelect(request.query.get('select'), table))
  const where = parseFilters(request.query, table, params)
  const order = parseOrder(request.query.get('order'), table)
  const offset = parseCount('offset', request.query.get('offset')) ?? 0
  const limit = Math.min(parseCount('limit', request.query.get('limit')) ?? options.maxRows, options.maxRows)
  const from = `${quoteIdent(SCHEMA)}.${quoteIdent(table.name)}`
  const countExact = parsePrefer(request.headers).get('count') === 'exact'

  const { result, total } = await asRequestRole(db, request, async (tx) => {
    const result = await resultSet(
      tx,
      `select ${AGGREGATE} from (select ${columns} from ${from}${where}${order} limit ${limit} offset ${offset}) _pgrst_t`,
      params,
    )
    const total = countExact
      ? ((await tx.query<{ total: number }>(`select count(*)::int as total from ${from}${where}`, params)).rows[0]?.total ?? 0)
      : undefined
    return { result, total }
  })
  const range = result.n > 0 ? `${offset}-${offset + result.n - 1}` : '*'
  const response = representation(request, result, 200, { 'Content-Range': `${range}/${total ?? '*'}` })
  return request.method === 'HEAD' ? { ...response, body: '' } : response
}

async function primaryKey(db: RestDatabase, table: Table): Promise<string[]> {
  const { rows } = await db.query<{ column: string }>(
    `select a.attname as column
       from pg_catalog.pg_index i
       join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = $1::regclass and i.indisprimary
      order by array_position(i.indkey, a.attnum)`,
    [`${quoteIdent(SCHEMA)}.${quoteIdent(table.name)}`],
  )
  return rows.map((row) => row.column)
}

function onConflictClause(request: ParsedRequest, prefer: Map<string, string>, columns: string[], table: Table, key: string[]): string {
  const resolution = prefer.get('resolution')
  // Without a resolution PostgREST makes a plain insert, whatever on_conflict says.
  if (resolution === undefined) return ''
  const param = request.query.get('on_conflict')
  const target = param === null ? key : param.split(',').map((column) => column.trim())
  for (const column of target) if (!table.columns.has(column)) throw errors.undefinedColumn(table.name, column)
  const conflict = `on conflict (${target.map(quoteIdent).join(', ')})`
  if (resolution === 'ignore-duplicates' || columns.length === 0) return ` ${conflict} do nothing`
  return ` ${conflict} do update set ${columns.map((column) => `${quoteIdent(column)} = excluded.${quoteIdent(column)}`).join(', ')}`
}

async function insert(db: RestDatabase, request: ParsedRequest, table: Table): Promise<RestResponse> {
  const prefer = parsePrefer(request.headers)
  const body = parseJsonBody(request)
  const columns = payloadColumns(body, request.query.get('columns'), table)
  const mode = prefer.get('return') ?? 'minimal'
  const key = mode === 'headers-only' || prefer.has('resolution') ? await primaryKey(db, table) : []
  // Like PostgREST: read-back is RETURNING, which needs SELECT on the returned columns; so is the
  // Location header of headers-only (the primary key), which a write-only role cannot have.
  const returning =
    mode === 'representation'
      ? selectList(parseSelect(request.query.get('select'), table))
      : mode === 'headers-only' && key.length
        ? key.map(quoteIdent).join(', ')
        : '1'
  const target = `${quoteIdent(SCHEMA)}.${quoteIdent(table.name)}`
  const list = columns.map(quoteIdent).join(', ')
  const rowsJson = `(case when json_typeof($1::json) = 'array' then $1::json else json_build_array($1::json) end)`
  // A scalar body inserts nothing in PostgREST (it is read as an empty array).
  const payload = Array.isArray(body) || isRecord(body) ? request.body : '[]'
  const conflict = onConflictClause(request, prefer, columns, table, key)
  const insertSql = columns.length
    ? `insert into ${target} (${list}) select ${list} from json_populate_recordset(null::${target}, ${rowsJson})${conflict}`
    : `insert into ${target} select from json_populate_recordset(null::${target}, ${rowsJson})${conflict}`

  return asRequestRole(db, request, async (tx) => {
    const result = await resultSet(tx, `with _pgrst_source as (${insertSql} returning ${returning}) select ${AGGREGATE} from _pgrst_source _pgrst_t`, [payload])
    const headers: Record<string, string> = { 'Content-Range': '*/*' }
    const applied = [prefer.has('resolution') && `resolution=${prefer.get('resolution')}`, prefer.has('return') && `return=${mode}`].filter(Boolean).join(', ')
    if (applied) headers['Preference-Applied'] = applied
    if (mode === 'headers-only') {
      const first = result.first ? (JSON.parse(result.first) as Record<string, unknown>) : null
      if (first && key.length) {
        headers.Location = `/${table.name}?${key.map((column) => `${column}=eq.${encodeURIComponent(String(first[column]))}`).join('&')}`
      }
      return { status: 201, headers, body: '' }
    }
    if (mode !== 'representation') return { status: 201, headers, body: '' }
    return representation(request, result, 201, headers)
  })
}

async function mutate(db: RestDatabase, request: ParsedRequest, table: Table, kind: 'update' | 'delete'): Promise<RestResponse> {
  const params: unknown[] = []
  const target = `${quoteIdent(SCHEMA)}.${quoteIdent(table.name)}`
  let statement: string
  if (kind === 'update') {
    const body = parseJsonBody(request)
    if (!isRecord(body)) throw errors.invalidBody('All object keys must match')
    const columns = payloadColumns(body, request.query.get('columns'), table)
    if (columns.length === 0) return { status: 204, headers: {}, body: '' }
    params.push(request.body)
    const list = columns.map(quoteIdent).join(', ')
    statement = `update ${target} set (${list}) = (select ${list} from json_populate_record(null::${target}, $1::json))`
  } else {
    statement = `delete from ${target}`
  }
  const where = parseFilters(request.query, table, params)
  const wantsRows = parsePrefer(request.headers).get('return') === 'representation'
  const returning = wantsRows ? selectList(parseSelect(request.query.get('select'), table)) : '1'

  return asRequestRole(db, request, async (tx) => {
    const result = await resultSet(
      tx,
      `with _pgrst_source as (${statement}${where} returning ${returning}) select ${AGGREGATE} from _pgrst_source _pgrst_t`,
      params,
    )
    const headers: Record<string, string> = { 'Content-Range': result.n > 0 ? `0-${result.n - 1}/*` : '*/*' }
    if (!wantsRows) return { status: 204, headers, body: '' }
    return representation(request, result, 200, { ...headers, 'Preference-Applied': 'return=representation' })
  })
}

async function rpc(db: RestDatabase, request: ParsedRequest, fn: string): Promise<RestResponse> {
  let args: Record<string, unknown>
  if (request.method === 'POST') {
    const body = request.body.trim() === '' ? {} : parseJsonBody(request)
    if (!isRecord(body)) throw errors.invalidBody('Empty or invalid json')
    args = body
  } else if (request.method === 'GET' || request.method === 'HEAD') {
    args = {}
    for (const [key, value] of request.query) if (!RESERVED_PARAMS.has(key)) args[key] = value
  } else {
    throw errors.rpcMethod(request.method)
  }
  const given = Object.keys(args)
  const routine = (await findRoutines(db, fn)).find((candidate) => {
    const names = candidate.inputs.map((input) => input.name)
    const required = names.slice(0, names.length - candidate.defaults)
    return given.every((name) => names.includes(name)) && required.every((name) => given.includes(name))
  })
  if (!routine) throw errors.functionNotFound(fn, [...given].sort())

  const passed = routine.inputs.filter((input) => given.includes(input.name))
  const call = `${quoteIdent(SCHEMA)}.${quoteIdent(fn)}(${passed
    .map((input) => `${quoteIdent(input.name)} := _pgrst_args.${quoteIdent(input.name)}`)
    .join(', ')})`
  // json_to_record converts each JSON value to the declared argument type, as PostgREST does.
  const from = passed.length
    ? ` from json_to_record($1::json) as _pgrst_args(${passed.map((input) => `${quoteIdent(input.name)} ${input.type}`).join(', ')})`
    : ''
  const params = passed.length ? [JSON.stringify(args)] : []
  let sql: string
  if (routine.returnsSet) {
    const value = routine.returnsComposite ? '_pgrst_t' : '_pgrst_t._pgrst_v'
    const alias = routine.returnsComposite ? '_pgrst_t' : '_pgrst_t(_pgrst_v)'
    sql = `select coalesce(json_agg(${value}), '[]')::text as body${from ? `${from},` : ' from'} lateral ${call} as ${alias}`
  } else if (routine.returnsComposite) {
    sql = `select to_json(_pgrst_t)::text as body${from ? `${from},` : ' from'} lateral ${call} as _pgrst_t`
  } else {
    sql = `select to_json(${call})::text as body${from}`
  }

  const body = await asRequestRole(db, request, async (tx) => (await tx.query<{ body: string | null }>(sql, params)).rows[0]?.body ?? 'null')
  if (routine.returnsVoid) return { status: 204, headers: {}, body: '' }
  return json(200, request.method === 'HEAD' ? '' : body)
}

async function root(db: RestDatabase, request: ParsedRequest): Promise<RestResponse> {
  // A small stand-in for PostgREST's OpenAPI root: the tables this role can use.
  const tables = await asRequestRole(
    db,
    request,
    async (tx) =>
      (await tx.query<{ name: string }>(`select table_name::text as name from information_schema.tables where table_schema = $1 order by 1`, [SCHEMA])).rows,
  )
  const paths: Record<string, object> = {}
  for (const table of tables) paths[`/${table.name}`] = {}
  return json(200, JSON.stringify({ swagger: '2.0', info: { title: 'Local PostgREST double', version: '1' }, paths }))
}

export async function handleRest(db: RestDatabase, rest: RestRequest, options: PostgrestOptions): Promise<RestResponse> {
  const headers: Record<string, string> = {}
  for (const [name, value] of rest.headerLines) {
    headers[name] = name in headers ? `${headers[name]}${name === 'cookie' ? '; ' : ', '}${value}` : value
  }
  const request: ParsedRequest = { ...rest, headers }
  const authed = request.role !== options.anonRole
  try {
    if (!options.roles.includes(request.role)) {
      // What PostgREST reports when its authenticator role may not switch to the JWT's role.
      throw new HttpError(authed ? 403 : 401, { code: '42501', details: null, hint: null, message: `permission denied to set role "${request.role}"` })
    }
    const profile = request.headers['accept-profile'] ?? request.headers['content-profile']
    if (profile !== undefined && profile !== SCHEMA) throw errors.unacceptableSchema(profile)

    let segments: string[]
    try {
      segments = request.path.split('/').filter(Boolean).map(decodeURIComponent)
    } catch {
      throw errors.noRoute()
    }
    if (segments.length === 0 && (request.method === 'GET' || request.method === 'HEAD')) return await root(db, request)
    if (segments.length === 2 && segments[0] === 'rpc') return await rpc(db, request, segments[1] as string)
    if (segments.length !== 1) throw errors.noRoute()

    const name = segments[0] as string
    const table = await findTable(db, name)
    if (!table) throw errors.tableNotFound(name, await suggestTable(db, name))
    switch (request.method) {
      case 'GET':
      case 'HEAD':
        return await read(db, request, table, options)
      case 'POST':
        return await insert(db, request, table)
      case 'PATCH':
        return await mutate(db, request, table, 'update')
      case 'DELETE':
        return await mutate(db, request, table, 'delete')
      default:
        throw errors.unsupportedMethod(request.method)
    }
  } catch (error) {
    const response = error instanceof HttpError ? error.response : isPgError(error) ? pgErrorResponse(error, authed) : null
    if (!response) throw error
    const code = typeof response.body.code === 'string' ? response.body.code : null
    const headers = code ? { 'Proxy-Status': `PostgREST; error=${code}`, ...response.headers } : response.headers
    return json(response.status, JSON.stringify(response.body), headers)
  }
}
