/**
 * Error responses of the local PostgREST double, shaped like PostgREST's and
 * Supabase's gateway's (Kong) so client code sees the same status codes and
 * JSON bodies locally as against a real project.
 *
 * Sources: PostgREST docs "Errors" (status table, PGRST codes, RAISE
 * conventions) and PostgREST src/PostgREST/Error.hs (mapSQLtoHTTP).
 */

export interface PostgrestErrorBody {
  code: string
  details: string | null
  hint: string | null
  message: string
}

export interface ErrorResponse {
  status: number
  headers: Record<string, string>
  /** Serialized as JSON; Kong's bodies are not PostgREST-shaped, hence the loose type. */
  body: PostgrestErrorBody | Record<string, unknown>
}

/** Thrown inside the double to answer with a prepared error response. */
export class HttpError extends Error {
  readonly response: ErrorResponse

  constructor(status: number, body: ErrorResponse['body'], headers: Record<string, string> = {}) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`)
    this.response = { status, headers, body }
  }
}

function pgrstError(status: number, code: string, message: string, details: string | null = null, hint: string | null = null) {
  return new HttpError(status, { code, details, hint, message })
}

export const errors = {
  // Kong (Supabase's gateway) answers these before PostgREST sees the request.
  noApiKey: () => new HttpError(401, { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' }),
  invalidApiKey: () => new HttpError(401, { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }),
  noRoute: () => new HttpError(404, { message: 'no Route matched with those values' }),
  payloadTooLarge: () => new HttpError(413, { message: 'Request size limit exceeded' }),

  // PostgREST's own errors.
  jwt: (code: 'PGRST301' | 'PGRST303', message: string) =>
    new HttpError(401, { code, details: null, hint: null, message }, { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${message}"` }),
  queryParam: (message: string, details: string) => pgrstError(400, 'PGRST100', message, details),
  invalidBody: (message: string) => pgrstError(400, 'PGRST102', message),
  unsupportedMediaType: (type: string) => pgrstError(415, 'PGRST107', `Content-Type not acceptable: ${type}`),
  invalidPreferences: (invalid: string[]) =>
    pgrstError(400, 'PGRST122', 'Invalid preferences given with handling=strict', `Invalid preferences: ${invalid.join(', ')}`),
  // What PostgREST supports and this double does not: said plainly, never silently ignored.
  notImplemented: (what: string) =>
    new HttpError(501, {
      code: 'LOCAL501',
      details: null,
      hint: 'The local PostgREST double implements only what this project uses; `supabase start` runs the real API.',
      message: `Not implemented by the local PostgREST double: ${what}`,
    }),
  unacceptableSchema: (schema: string) => pgrstError(406, 'PGRST106', `Invalid schema: ${schema}`, null, 'Only the following schemas are exposed: public'),
  singularity: (rows: number) => pgrstError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', `The result contains ${rows} rows`),
  unsupportedMethod: (method: string) => pgrstError(405, 'PGRST117', `Unsupported HTTP method: ${method}`),
  rpcMethod: (method: string) => pgrstError(405, 'PGRST101', `Cannot use the ${method} method on RPC`),
  functionNotFound: (fn: string, args: string[]) =>
    pgrstError(
      404,
      'PGRST202',
      `Could not find the function public.${fn}${args.length ? `(${args.join(', ')})` : ' without parameters'} in the schema cache`,
      `Searched for the function public.${fn}${
        args.length ? ` with parameter${args.length > 1 ? 's' : ''} ${args.join(', ')}` : ' without parameters'
      } or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
    ),
  columnNotFound: (table: string, column: string) => pgrstError(400, 'PGRST204', `Could not find the '${column}' column of '${table}' in the schema cache`),
  tableNotFound: (table: string, suggestion: string | null) =>
    pgrstError(
      404,
      'PGRST205',
      `Could not find the table 'public.${table}' in the schema cache`,
      null,
      suggestion ? `Perhaps you meant the table 'public.${suggestion}'` : null,
    ),
  // Postgres reports an unknown column in a select/filter itself (42703, status "other" = 400).
  undefinedColumn: (table: string, column: string) => pgrstError(400, '42703', `column ${table}.${column} does not exist`),
  internal: (message: string) => pgrstError(500, 'PGRSTX00', message),
}

/** The fields of a Postgres error that matter here (PGlite's DatabaseError has them). */
export interface PgErrorLike {
  code?: string
  message: string
  detail?: string
  hint?: string
}

export function isPgError(error: unknown): error is PgErrorLike & Error {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string' && 'severity' in error
}

/**
 * PostgREST's SQLSTATE -> HTTP status table (mapSQLtoHTTP). `authed` is true
 * when the request's role is not the anonymous role: a privilege error then
 * means "forbidden" rather than "log in first".
 */
export function statusForSqlState(code: string, message: string, authed: boolean): number {
  const exact: Record<string, number> = {
    '23503': 409,
    '23505': 409,
    '25006': 405,
    '53400': 500,
    '57P01': 503,
    P0001: 400,
    '42P01': 404,
    '42P17': 500,
  }
  if (code in exact) return exact[code] as number
  if (code === '42501') return authed ? 403 : 401
  if (code === '42883') return message.startsWith('function xmlagg(') ? 406 : 404
  if (code === '21000') return message.endsWith('requires a WHERE clause') ? 400 : 500
  if (code === '22023') return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400
  const byClass: Record<string, number> = {
    '08': 503,
    '09': 500,
    '0L': 403,
    '0P': 403,
    '25': 500,
    '28': 403,
    '2D': 500,
    '38': 500,
    '39': 500,
    '3B': 500,
    '40': 500,
    '53': 503,
    '54': 500,
    '55': 500,
    '57': 500,
    '58': 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  }
  const cls = code.slice(0, 2)
  if (cls in byClass) return byClass[cls] as number
  // RAISE SQLSTATE 'PT402' -> HTTP 402.
  if (code.startsWith('PT')) {
    const status = Number(code.slice(2))
    return Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500
  }
  return 400
}

function parseJsonObject(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * `RAISE SQLSTATE 'PGRST' USING message = '{"code":..,"message":..}', detail =
 * '{"status":429,"headers":{..}}'` gives full control of status, headers and
 * body; a message or detail that is not such JSON is PostgREST's PGRST121.
 */
function raisedPgrstResponse(error: PgErrorLike): ErrorResponse {
  const message = parseJsonObject(error.message)
  const detail = parseJsonObject(error.detail)
  const parseError = (details: string, hint: string): ErrorResponse => ({
    status: 500,
    headers: {},
    body: { code: 'PGRST121', details, hint, message: 'Could not parse JSON in the "RAISE SQLSTATE \'PGRST\'" error' },
  })
  if (!message || typeof message.code !== 'string' || typeof message.message !== 'string') {
    return parseError(
      `Invalid JSON value for MESSAGE: '${error.message}'`,
      "MESSAGE must be a JSON object with obligatory keys: 'code', 'message' and optional keys: 'details', 'hint'.",
    )
  }
  if (error.detail === undefined) {
    return parseError(
      'DETAIL is missing in the RAISE statement',
      "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'.",
    )
  }
  const status = detail?.status
  const headers = detail?.headers
  if (
    !detail ||
    typeof status !== 'number' ||
    !Number.isInteger(status) ||
    status < 100 ||
    status > 599 ||
    typeof headers !== 'object' ||
    headers === null ||
    Array.isArray(headers)
  ) {
    return parseError(
      `Invalid JSON value for DETAIL: '${error.detail}'`,
      "DETAIL must be a JSON object with obligatory keys: 'status', 'headers' and optional key: 'status_text'.",
    )
  }
  const responseHeaders: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') responseHeaders[name] = value
  }
  return {
    status,
    headers: responseHeaders,
    body: {
      code: message.code,
      details: typeof message.details === 'string' ? message.details : null,
      hint: typeof message.hint === 'string' ? message.hint : null,
      message: message.message,
    },
  }
}

export function pgErrorResponse(error: PgErrorLike, authed: boolean): ErrorResponse {
  const code = error.code ?? 'XX000'
  if (code === 'PGRST') return raisedPgrstResponse(error)
  const status = statusForSqlState(code, error.message, authed)
  return {
    status,
    // PostgREST adds this to every 401 it derives from a database error.
    headers: status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {},
    body: { code, details: error.detail ?? null, hint: error.hint ?? null, message: error.message },
  }
}
