/**
 * The dispatcher's side of a test database: the outbox functions called as service_role, as
 * components/waitlist/outbox/store.ts calls them over the REST API; and an e-mail channel that
 * keeps what it would have sent, for tests that read the e-mails instead of a mail server.
 */
import type { ClaimedEntry, ClaimedMessage, OutboxStore } from '@/components/waitlist/outbox/dispatch'
import type { EmailChannel, OutgoingEmail } from '@/components/waitlist/outbox/email'
import { runAs, type WaitlistDb } from './waitlist-db'

export function databaseStore(db: () => WaitlistDb): OutboxStore {
  async function value<T>(sql: string, params: unknown[]): Promise<T> {
    const result = await runAs<{ value: T }>(db(), 'service_role', sql, params, { keep: true, request: { headers: {} } })
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`)
    return result.rows[0]!.value
  }
  return {
    claim: (max) => value<ClaimedMessage[]>('select public.waitlist_outbox_claim($1) as value', [max]),
    attachToken: async (message, hash) => {
      const expires = await value<string | Date | null>('select public.waitlist_outbox_attach_token($1, $2, $3) as value', [message.id, message.lease_id, hash])
      return expires ? new Date(expires) : null
    },
    attachUnsubscribe: (message, hash) =>
      value<boolean>('select public.waitlist_outbox_attach_unsubscribe($1, $2, $3) as value', [message.id, message.lease_id, hash]),
    beginSend: (message) =>
      value<{ entry: ClaimedEntry | null } | null>('select public.waitlist_outbox_begin_send($1, $2) as value', [message.id, message.lease_id]),
    release: (message) => value<boolean>('select public.waitlist_outbox_release($1, $2) as value', [message.id, message.lease_id]),
    complete: (message, outcome, note) =>
      value<boolean>('select public.waitlist_outbox_complete($1, $2, $3, $4) as value', [message.id, message.lease_id, outcome, note ?? null]),
    fail: (message, failure, final) =>
      value<string | null>('select public.waitlist_outbox_fail($1, $2, $3, $4) as value', [message.id, message.lease_id, failure, final ?? false]),
    purgePending: () => value<number>('select public.waitlist_purge_pending() as value', []),
  }
}

/** An e-mail channel that sends nothing and keeps every e-mail, in order. */
export function capturingEmail(): { channel: EmailChannel; sent: OutgoingEmail[] } {
  const sent: OutgoingEmail[] = []
  return { channel: async (email) => void sent.push(email), sent }
}

/** The token of the link in an e-mail's text part (`…/waitlist/confirm#token=…`). */
export function linkToken(email: Pick<OutgoingEmail, 'text'>): string {
  const token = /#token=([A-Za-z0-9_-]{43})/.exec(email.text)?.[1]
  if (!token) throw new Error(`no link in ${email.text}`)
  return token
}
