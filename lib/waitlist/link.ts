/**
 * The confirm page's two calls to the database: confirm a link's token, and ask for a new link.
 * Plain fetch to PostgREST's RPC endpoint with the public key (the `apikey` header, which the
 * Supabase gateway and the local double both accept), so the confirm page's island stays small:
 * no supabase-js. Browser-safe.
 */

export type ConfirmAnswer = 'confirmed' | 'already_confirmed' | 'expired' | 'invalid'
/** 'unreachable': offline, refused or rate limited: the link itself may still be good. */
export type ConfirmResult = ConfirmAnswer | 'unreachable'
export type LinkRequestResult = 'sent' | 'rate_limited' | 'unreachable'

const ANSWERS = new Set<string>(['confirmed', 'already_confirmed', 'expired', 'invalid'])

/** The token from the confirm link's fragment (`#token=…`), or null. */
export function tokenFromHash(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token')
  return token ? token.trim() : null
}

type Backend = { url: string; anonKey: string }

async function rpc(backend: Backend, fn: string, args: Record<string, unknown>, fetchImpl: typeof fetch): Promise<Response> {
  return fetchImpl(`${backend.url.replace(/\/$/, '')}/rest/v1/rpc/${fn}`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
    cache: 'no-store',
  })
}

/** `fetchImpl`: the load check confirms from many simulated clients. */
export async function confirmWaitlistLink(backend: Backend, token: string, fetchImpl: typeof fetch = fetch): Promise<ConfirmResult> {
  try {
    const response = await rpc(backend, 'waitlist_confirm', { token }, fetchImpl)
    if (!response.ok) return 'unreachable'
    const answer: unknown = await response.json()
    return typeof answer === 'string' && ANSWERS.has(answer) ? (answer as ConfirmAnswer) : 'unreachable'
  } catch {
    return 'unreachable'
  }
}

export async function requestWaitlistLink(backend: Backend, email: string): Promise<LinkRequestResult> {
  try {
    const response = await rpc(backend, 'waitlist_request_link', { email }, fetch)
    if (response.status === 429) return 'rate_limited'
    return response.ok ? 'sent' : 'unreachable'
  } catch {
    return 'unreachable'
  }
}
