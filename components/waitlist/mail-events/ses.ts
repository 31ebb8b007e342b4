/**
 * Amazon SES's events through SNS, verified as AWS documents ("Verifying the signatures of Amazon
 * SNS messages"): the certificate is fetched only from an https `sns.<region>.amazonaws.com` host
 * (anyone can sign a message with a certificate of their own; only AWS's host proves it is SNS's),
 * and cached by its URL; the string to sign is the message's fields, each name and value on a line,
 * in AWS's order; SignatureVersion 1 is SHA1withRSA, 2 SHA256withRSA. A message more than an hour
 * old is refused (a replay: SNS's own retries of one delivery end well within that), and its
 * MessageId is stored, so a replay within the hour is refused too. A topic other than the
 * configured one is refused. A SubscriptionConfirmation is confirmed by fetching its SubscribeURL,
 * from the same AWS host rule.
 */
import { createVerify, X509Certificate } from 'node:crypto'
import { isoTime, parseJson, refused, text, type MailEvent, type MailEventKind, type Verified } from './event'

export const SNS_MAX_AGE_MS = 60 * 60_000

/** Fetches a certificate's PEM (injectable: the tests serve one made on the machine). */
export type FetchText = (url: string) => Promise<string>

const defaultFetch: FetchText = async (url) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(5000), redirect: 'error' })
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  return response.text()
}

/** True for an https URL on SNS's own host in some region (sns.eu-west-1.amazonaws.com; .cn in China). */
export function isSnsHost(url: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  return (
    parsed.protocol === 'https:' &&
    parsed.port === '' &&
    parsed.username === '' &&
    /^sns\.[a-z]{2}(-gov)?-[a-z]+-\d\.amazonaws\.com(\.cn)?$/.test(parsed.hostname)
  )
}

const certificates = new Map<string, Promise<X509Certificate>>()

async function certificate(url: string, fetchText: FetchText): Promise<X509Certificate> {
  let pending = certificates.get(url)
  if (!pending) {
    pending = fetchText(url).then((pem) => new X509Certificate(pem))
    certificates.set(url, pending)
    // A failed fetch is not kept: the next message tries again.
    pending.catch(() => certificates.delete(url))
  }
  return pending
}

/** For the tests: forget the cached certificates. */
export const clearSnsCertificates = () => certificates.clear()

const SIGNED_FIELDS: Record<string, string[]> = {
  Notification: ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
  SubscriptionConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
  UnsubscribeConfirmation: ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'],
}

export function snsStringToSign(message: Record<string, unknown>): string | null {
  const fields = SIGNED_FIELDS[String(message.Type)]
  if (!fields) return null
  let result = ''
  for (const field of fields) {
    const value = message[field]
    // Subject is signed only when the message has one.
    if (value === undefined || value === null) {
      if (field === 'Subject') continue
      return null
    }
    result += `${field}\n${String(value)}\n`
  }
  return result
}

function sesEvents(messageId: string, notification: Record<string, unknown>): MailEvent[] {
  const type = text(notification.notificationType) ?? text(notification.eventType)
  const pick = (part: unknown, list: string): { kind: MailEventKind; time: string | null; emails: string[] } => {
    const body = (part ?? {}) as Record<string, unknown>
    const recipients = Array.isArray(body[list]) ? (body[list] as unknown[]) : []
    const emails = recipients
      .map((recipient) => (typeof recipient === 'string' ? recipient : text((recipient as Record<string, unknown>)?.emailAddress)))
      .filter((value): value is string => !!value)
    return { kind: 'other', time: isoTime(body.timestamp), emails }
  }
  let found: { kind: MailEventKind; time: string | null; emails: string[] }
  if (type === 'Bounce') {
    found = pick(notification.bounce, 'bouncedRecipients')
    const bounceType = text((notification.bounce as Record<string, unknown> | undefined)?.bounceType)
    found.kind = bounceType === 'Permanent' ? 'hard_bounce' : 'soft_bounce'
  } else if (type === 'Complaint') {
    found = pick(notification.complaint, 'complainedRecipients')
    found.kind = 'complaint'
  } else if (type === 'Delivery') {
    found = pick(notification.delivery, 'recipients')
    found.kind = 'delivered'
  } else {
    return [{ provider: 'ses', id: messageId, kind: 'other', email: null, occurredAt: null }]
  }
  if (!found.emails.length) return [{ provider: 'ses', id: messageId, kind: 'other', email: null, occurredAt: found.time }]
  return found.emails.map((email, index) => ({
    provider: 'ses',
    id: found.emails.length > 1 ? `${messageId}:${index}` : messageId,
    kind: found.kind,
    email,
    occurredAt: found.time,
  }))
}

export type SesOptions = { topicArn: string; now?: Date; fetchText?: FetchText }

export async function verifySes(body: string, options: SesOptions): Promise<Verified> {
  const fetchText = options.fetchText ?? defaultFetch
  const message = parseJson(body)
  if (!message) return refused(400, 'not a JSON object')
  const certUrl = text(message.SigningCertURL) ?? text(message.SigningCertUrl)
  if (!certUrl || !isSnsHost(certUrl) || !new URL(certUrl).pathname.endsWith('.pem')) return refused(401, 'SigningCertURL is not an https SNS host')
  const version = String(message.SignatureVersion)
  if (version !== '1' && version !== '2') return refused(401, 'unknown SignatureVersion')
  const signed = snsStringToSign(message)
  const signature = text(message.Signature)
  if (!signed || !signature) return refused(400, 'not an SNS message')
  let cert: X509Certificate
  try {
    cert = await certificate(certUrl, fetchText)
  } catch (error) {
    return refused(503, `certificate unavailable: ${error instanceof Error ? error.message : String(error)}`)
  }
  const now = options.now ?? new Date()
  if (new Date(cert.validTo) < now || new Date(cert.validFrom) > now) return refused(401, 'certificate not valid now')
  const verifier = createVerify(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
  verifier.update(signed, 'utf8')
  if (!verifier.verify(cert.publicKey, signature, 'base64')) return refused(401, 'bad signature')
  const sent = isoTime(message.Timestamp)
  if (!sent || Math.abs(now.getTime() - new Date(sent).getTime()) > SNS_MAX_AGE_MS) return refused(401, 'timestamp too old or too new')
  if (message.TopicArn !== options.topicArn) return refused(403, 'another topic')
  const messageId = text(message.MessageId) as string
  if (message.Type === 'SubscriptionConfirmation') {
    const subscribe = text(message.SubscribeURL)
    if (!subscribe || !isSnsHost(subscribe)) return refused(400, 'SubscribeURL is not an SNS host')
    try {
      await fetchText(subscribe)
    } catch (error) {
      return refused(503, `could not confirm the subscription: ${error instanceof Error ? error.message : String(error)}`)
    }
    return { ok: true, events: [], answer: 'subscribed' }
  }
  if (message.Type !== 'Notification') return { ok: true, events: [] }
  const notification = parseJson(String(message.Message))
  if (!notification) return { ok: true, events: [{ provider: 'ses', id: messageId, kind: 'other', email: null, occurredAt: sent }] }
  return { ok: true, events: sesEvents(messageId, notification) }
}
