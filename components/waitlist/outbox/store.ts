/**
 * The outbox's database calls over supabase-js with the service-role key (the functions are
 * granted to service_role only). Server only: never import this from a client component.
 */
import type { Database } from '@/supabase/types.generated'
import { SERVICE_TIMEOUT_MS, type ServiceClient } from '@/lib/supabase/service'
import type { ClaimedEntry, ClaimedMessage, OutboxStore } from './dispatch'

type Functions = Database['public']['Functions']

/** How long one of the dispatcher's database calls may take (each is one short transaction). */
export const STORE_TIMEOUT_MS = SERVICE_TIMEOUT_MS

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
      (await call(client, 'waitlist_outbox_begin_send', { message_id: message.id, lease: message.lease_id })) as unknown as {
        entry: ClaimedEntry | null
      } | null,
    release: (message) => call(client, 'waitlist_outbox_release', { message_id: message.id, lease: message.lease_id }),
    complete: (message, outcome, note) =>
      call(client, 'waitlist_outbox_complete', { message_id: message.id, lease: message.lease_id, outcome, outcome_note: note ?? undefined }),
    fail: (message, failure, final) =>
      call(client, 'waitlist_outbox_fail', { message_id: message.id, lease: message.lease_id, failure, final: final ?? false }),
    purgePending: () => call(client, 'waitlist_purge_pending', {}),
  }
}
