/**
 * A provider's event webhook, from its request to the database: the provider authenticated as it
 * documents (resend.ts, postmark.ts, ses.ts), each event recorded once and acted on by
 * public.waitlist_mail_event (supabase/schemas/21_deliverability.sql). A provider whose settings are
 * not set answers 404, so an unconfigured deployment offers nothing to probe.
 */
import { readBodyCapped } from '@/lib/http/body'
import { MAIL_PROVIDERS, type MailEvent, type MailProvider, type Verified } from './event'
import { verifyPostmark } from './postmark'
import { verifyResend } from './resend'
import { verifySes, type FetchText } from './ses'

/** Provider events are small (a bounce with its headers is a few kB); SES's carry the mail's headers. */
export const MAIL_EVENT_MAX_BYTES = 256 * 1024

export type MailEventSettings = {
  resendSecret?: string
  postmark?: { user: string; password: string }
  sesTopicArn?: string
  /** The SNS certificate and subscription fetch (the tests serve their own certificate). */
  fetchText?: FetchText
}

/** Records one event; answers what the database did ('replayed' for one it already had). */
export type RecordMailEvent = (event: MailEvent) => Promise<string>

async function verify(provider: MailProvider, body: string, request: Request, settings: MailEventSettings): Promise<Verified | null> {
  if (provider === 'resend') return settings.resendSecret ? verifyResend(body, request.headers, settings.resendSecret) : null
  if (provider === 'postmark')
    return settings.postmark ? verifyPostmark(body, request.headers.get('authorization'), settings.postmark.user, settings.postmark.password) : null
  return settings.sesTopicArn ? verifySes(body, { topicArn: settings.sesTopicArn, fetchText: settings.fetchText }) : null
}

export async function handleMailEvent(provider: string, request: Request, settings: MailEventSettings, record: RecordMailEvent | null): Promise<Response> {
  if (!(MAIL_PROVIDERS as readonly string[]).includes(provider)) return Response.json({ ok: false, reason: 'unknown provider' }, { status: 404 })
  if (request.method !== 'POST') return Response.json({ ok: false, reason: 'POST only' }, { status: 405, headers: { allow: 'POST' } })
  const read = await readBodyCapped(request, MAIL_EVENT_MAX_BYTES)
  if (!read.ok) return Response.json({ ok: false, reason: 'too large' }, { status: 413 })
  const body = new TextDecoder().decode(read.bytes)
  const verified = await verify(provider as MailProvider, body, request, settings)
  if (!verified) return Response.json({ ok: false, reason: 'not configured' }, { status: 404 })
  if (!verified.ok) {
    console.warn(`[mail-events] ${provider} refused: ${verified.reason}`)
    return Response.json({ ok: false, reason: verified.reason }, { status: verified.status })
  }
  if (!record) return Response.json({ ok: false, reason: 'database not configured' }, { status: 503 })
  const results: string[] = []
  try {
    // In order: two recipients of one event share nothing, but a retry must see the first recorded.
    for (const event of verified.events) results.push(await record(event))
  } catch (error) {
    // 5xx: the provider retries, and the event's id makes the retry count once.
    console.error(`[mail-events] ${provider} not recorded: ${error instanceof Error ? error.message : String(error)}`)
    return Response.json({ ok: false, reason: 'not recorded' }, { status: 503 })
  }
  // A replay is answered 200 too: the provider must stop retrying what is already recorded.
  return Response.json({ ok: true, results, ...(verified.answer ? { answer: verified.answer } : {}) })
}
