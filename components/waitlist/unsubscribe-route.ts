import 'server-only'
import { readBodyCapped } from '@/lib/http/body'
import { configuredServiceClient } from '@/lib/supabase/configured'
import { DEFAULT_LANGUAGE, isLanguageCode, localizePath } from '@/lib/i18n/languages'
import { isUnsubscribeToken, LEAVE_PAGE_PATH } from './unsubscribe-path'

/**
 * Does what the token's e-mail offered: an update e-mail's token stops updates, any other erases the
 * entry (the database decides, from what it stored with the token); 'unavailable' when the database
 * cannot be reached or is not configured.
 */
export type Remove = (token: string) => Promise<boolean | 'unavailable'>

const removeWithServiceKey: Remove = async (token) => {
  const client = configuredServiceClient()
  if (!client) return 'unavailable'
  const { data, error } = await client.rpc('waitlist_unsubscribe', { token })
  return error ? 'unavailable' : data === true
}

/** A GET of the header's address: no action, only the page that asks for a press (mail scanners follow links). */
export function unsubscribePage(request: Request): Response {
  const params = new URL(request.url).searchParams
  const token = params.get('token') ?? ''
  // Only a language code chooses the page's language; anything else is English's page.
  const language = params.get('lang') ?? ''
  const target = new URL(localizePath(LEAVE_PAGE_PATH, isLanguageCode(language) ? language : DEFAULT_LANGUAGE), request.url)
  return new Response(null, {
    status: 303,
    headers: { location: `${target.pathname}${token ? `#token=${encodeURIComponent(token)}` : ''}`, 'cache-control': 'no-store' },
  })
}

/**
 * The one-click POST (a mail program's, body `List-Unsubscribe=One-Click`, or the leave page's):
 * takes the token's person off the list, or, for an update e-mail's token, stops their updates.
 * The same answer whether or not a well-formed token was anyone's, and whatever it did; 400
 * `{"ok": false, "reason": "invalid"}` for a token of a shape we never send.
 */
export async function unsubscribe(request: Request, remove: Remove = removeWithServiceKey): Promise<Response> {
  const token = new URL(request.url).searchParams.get('token')
  // The body says only "One-Click": read none of a larger one.
  const body = await readBodyCapped(request, 1024)
  if (!body.ok) return Response.json({ ok: false }, { status: 413 })
  // No token, or one of a shape we never send (NUL, a lone surrogate, 10 kB...): nobody's, now or
  // later, so 400 and a reason, never 503 (a mail program retries that).
  if (!isUnsubscribeToken(token)) return Response.json({ ok: false, reason: 'invalid' }, { status: 400, headers: { 'cache-control': 'no-store' } })
  const removed = await remove(token)
  if (removed === 'unavailable') return Response.json({ ok: false }, { status: 503 })
  return Response.json({ ok: true }, { headers: { 'cache-control': 'no-store' } })
}
