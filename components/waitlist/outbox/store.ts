/**
 * The outbox's database calls over supabase-js with the service-role key (the functions are
 * granted to service_role only). Server only: never import this from a client component.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import type { ClaimedMessage, OutboxStore } from './dispatch'

export function serviceClient(url: string, serviceRoleKey: string): SupabaseClient {
  return createClient(url, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } })
}

async function call<T>(client: SupabaseClient, fn: string, args: Record<string, unknown>): Promise<T> {
  const { data, error, status } = await client.rpc(fn, args)
  if (error) throw new Error(`${fn} failed (HTTP ${status}${error.code ? ` ${error.code}` : ''}): ${error.message}`)
  return data as T
}

export function supabaseOutboxStore(client: SupabaseClient): OutboxStore {
  return {
    claim: (maxMessages) => call<ClaimedMessage[]>(client, 'waitlist_outbox_claim', { max_messages: maxMessages }),
    attachToken: async (message, tokenHash) => {
      const expires = await call<string | null>(client, 'waitlist_outbox_attach_token', { message_id: message.id, lease: message.lease_id, new_token_hash: tokenHash })
      return expires ? new Date(expires) : null
    },
    attachUnsubscribe: (message, tokenHash) =>
      call<boolean>(client, 'waitlist_outbox_attach_unsubscribe', { message_id: message.id, lease: message.lease_id, new_token_hash: tokenHash }),
    complete: (message, outcome, note) =>
      call<boolean>(client, 'waitlist_outbox_complete', { message_id: message.id, lease: message.lease_id, outcome, outcome_note: note ?? null }),
    fail: (message, failure) => call<string | null>(client, 'waitlist_outbox_fail', { message_id: message.id, lease: message.lease_id, failure }),
    purgePending: () => call<number>(client, 'waitlist_purge_pending', {}),
  }
}
