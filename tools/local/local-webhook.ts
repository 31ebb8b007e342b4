import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import type { BroadcastOutcome } from '../../components/waitlist/updates'

/** The webhook Sanity sends on publish, signed the same way, for the local publish flow. */
export async function sendRevalidationWebhook(siteUrl: string, secret: string, change: { _type: string; _id: string }) {
  const body = JSON.stringify(change)
  const signature = await encodeSignatureHeader(body, Date.now(), secret)
  const response = await fetch(new URL('/api/revalidate', siteUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: signature },
    body,
  })
  return { status: response.status, body: (await response.json()) as { revalidated: boolean; tags?: string[]; reason?: string; broadcast?: BroadcastOutcome } }
}
