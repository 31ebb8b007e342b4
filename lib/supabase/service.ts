/**
 * The database with the service-role key, for the server's own calls (the outbox's dispatcher in
 * components/waitlist/outbox/store.ts, unsubscribing, the app's redemption, a post's e-mail, the
 * experiments' sync) and the owner's tools. The key reads and writes everything: never import
 * this from a client component (./configured.ts, which reads the key, is server-only).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type { Database } from '@/supabase/types.generated'

/** The database as the service-role key sees it: names and arguments checked against supabase/schemas/. */
export type ServiceClient = SupabaseClient<Database>

/** How long one of the server's own database calls may take: each is one short transaction. */
export const SERVICE_TIMEOUT_MS = 10_000

/**
 * `timeoutMs`: every request gives up after it (supabase-js waits forever by default), so a
 * database that hangs slows a request or a dispatch run (within its lease), never holds it.
 */
export function serviceClient(url: string, serviceRoleKey: string, { timeoutMs }: { timeoutMs?: number } = {}): ServiceClient {
  const timed: typeof fetch = (input, init) =>
    fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs!)]) : AbortSignal.timeout(timeoutMs!) })
  return createClient<Database>(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    ...(timeoutMs ? { global: { fetch: timed } } : {}),
  })
}
