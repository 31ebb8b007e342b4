/**
 * One provider's event, reduced to what the database acts on (public.waitlist_mail_event,
 * supabase/schemas/21_deliverability.sql): the provider's own id (a second delivery or a replay is
 * refused by it), what happened, to which address, and when.
 */
export type MailEventKind = 'delivered' | 'soft_bounce' | 'hard_bounce' | 'complaint' | 'other'

export type MailEvent = { provider: MailProvider; id: string; kind: MailEventKind; email: string | null; occurredAt: string | null }

export const MAIL_PROVIDERS = ['resend', 'postmark', 'ses'] as const
export type MailProvider = (typeof MAIL_PROVIDERS)[number]

/** What a provider's webhook request came to: events to record, or why it is refused (and with which status). */
export type Verified = { ok: true; events: MailEvent[]; answer?: string } | { ok: false; status: number; reason: string }

export const refused = (status: number, reason: string): Verified => ({ ok: false, status, reason })

export function isoTime(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null
  const time = new Date(value)
  return Number.isNaN(time.getTime()) ? null : time.toISOString()
}

export const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null)

export function parseJson(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}
