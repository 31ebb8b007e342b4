import { decodeSignatureHeader, isValidSignature, SIGNATURE_HEADER_NAME } from '@sanity/webhook'

/**
 * Verifies Sanity's GROQ-powered webhook and says which cache tags a change touches.
 * Kept free of Next so every signature case can be tested directly.
 */

export { SIGNATURE_HEADER_NAME }

/** A signature older than this is a replay, not a publish. */
export const MAX_SIGNATURE_AGE_MS = 5 * 60 * 1000

export type WebhookChange = { _type: string; _id: string }

export type WebhookVerdict = { ok: true; change: WebhookChange } | { ok: false; status: 400 | 401 | 413; reason: string }

/** Sanity's webhook bodies are the projection `{_type, _id}`: a few hundred bytes. */
export const MAX_WEBHOOK_BODY_BYTES = 16 * 1024

/**
 * What can be judged before reading the body: a secret is configured, and the signature header is
 * there, well formed and fresh. A request failing here is refused without a byte of its body read.
 */
export function precheckWebhook({
  signature,
  secret,
  now = Date.now(),
}: {
  signature: string | null
  secret: string | undefined
  now?: number
}): WebhookVerdict | null {
  // Fail closed: without a configured secret nobody can trigger revalidation.
  if (!secret) return { ok: false, status: 401, reason: 'revalidation is not configured (no SANITY_REVALIDATE_SECRET)' }
  if (!signature) return { ok: false, status: 401, reason: `missing ${SIGNATURE_HEADER_NAME} header` }
  let timestamp: number
  try {
    timestamp = decodeSignatureHeader(signature).timestamp
  } catch {
    return { ok: false, status: 401, reason: 'malformed signature' }
  }
  if (Math.abs(now - timestamp) > MAX_SIGNATURE_AGE_MS) return { ok: false, status: 401, reason: 'stale signature' }
  return null
}

export async function verifyWebhook({
  body,
  signature,
  secret,
  now = Date.now(),
}: {
  body: string
  signature: string | null
  secret: string | undefined
  now?: number
}): Promise<WebhookVerdict> {
  const refused = precheckWebhook({ signature, secret, now })
  if (refused) return refused
  if (!(await isValidSignature(body, signature!, secret!))) return { ok: false, status: 401, reason: 'invalid signature' }
  let change: Partial<WebhookChange>
  try {
    change = JSON.parse(body) as Partial<WebhookChange>
  } catch {
    return { ok: false, status: 400, reason: 'body is not JSON' }
  }
  if (typeof change._type !== 'string' || typeof change._id !== 'string') {
    return { ok: false, status: 400, reason: 'body needs _type and _id (set the webhook projection to {_type, _id})' }
  }
  return { ok: true, change: { _type: change._type, _id: change._id } }
}

/**
 * Which document types a set of translations links (@sanity/document-internationalization's
 * metadata): linking or unlinking one changes the alternates of every page and post in it.
 */
const TRANSLATION_METADATA = 'translation.metadata'
const LINKED_BY_TRANSLATIONS = ['page', 'post', 'category']

/** Cache tags: one per document type (what lists depend on) and one per document. */
export function tagsForChange(change: WebhookChange): string[] {
  const id = change._id.replace(/^drafts\./, '')
  if (change._type === TRANSLATION_METADATA) return [...LINKED_BY_TRANSLATIONS, documentTag(id)]
  return [change._type, documentTag(id)]
}

export const documentTag = (id: string) => `doc:${id}`
