/**
 * The outbox's database calls over supabase-js with the service-role key (the functions are
 * granted to service_role only). Server only: never import this from a client component.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type { Database } from '@/supabase/types.generated'
import type { ClaimedEntry, ClaimedMessage, OutboxStore } from './dispatch'

/** The database as the service-role key sees it: names and arguments checked against supabase/schemas/. */
export type ServiceClient = SupabaseClient<Database>

type Functions = Database['public']['Functions']

/**
 * `timeoutMs`: every request gives up after it (supabase-js waits forever by default), so a
 * database that hangs cannot hold a dispatch run past its lease.
 */
export function serviceClient(url: string, serviceRoleKey: string, { timeoutMs }: { timeoutMs?: number } = {}): ServiceClient {
  const timed: typeof fetch = (input, init) =>
    fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs!)]) : AbortSignal.timeout(timeoutMs!) })
  return createClient<Database>(url, serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    ...(timeoutMs ? { global: { fetch: timed } } : {}),
  })
}

/** How long one of the dispatcher's database calls may take (each is one short transaction). */
export const STORE_TIMEOUT_MS = 10_000

async function call<Name extends keyof Functions>(client: ServiceClient, fn: Name, args: Functions[Name]['Args']): Promise<Functions[Name]['Returns']> {
  const { data, error, status } = await client.rpc(fn, args)
  if (error) throw new Error(`${fn} failed (HTTP ${status}${error.code ? ` ${error.code}` : ''}): ${error.message}`)
  return data as Functions[Name]['Returns']
}

export function supabaseOutboxStore(client: ServiceClient): OutboxStore {
  return {
    // jsonb: the shape of a claimed message is the function's, described by ClaimedMessage.
    claim: async (maxMessages) => (await call(client, 'waitlist_outbox_claim', { max_messages: maxMessages })) as unknown as ClaimedMessage[],
    attachToken: async (message, tokenHash) => {
      const expires = await call(client, 'waitlist_outbox_attach_token', { message_id: message.id, lease: message.lease_id, new_token_hash: tokenHash })
      return expires ? new Date(expires) : null
    },
    attachUnsubscribe: (message, tokenHash) =>
      call(client, 'waitlist_outbox_attach_unsubscribe', { message_id: message.id, lease: message.lease_id, new_token_hash: tokenHash }),
    beginSend: async (message) =>
      (await call(client, 'waitlist_outbox_begin_send', { message_id: message.id, lease: message.lease_id })) as unknown as { entry: ClaimedEntry | null } | null,
    release: (message) => call(client, 'waitlist_outbox_release', { message_id: message.id, lease: message.lease_id }),
    complete: (message, outcome, note) =>
      call(client, 'waitlist_outbox_complete', { message_id: message.id, lease: message.lease_id, outcome, outcome_note: note ?? undefined }),
    fail: (message, failure, final) => call(client, 'waitlist_outbox_fail', { message_id: message.id, lease: message.lease_id, failure, final: final ?? false }),
    purgePending: () => call(client, 'waitlist_purge_pending', {}),
  }
}
