import { encodeSignatureHeader, SIGNATURE_HEADER_NAME } from '@sanity/webhook'
import type { NextRequest } from 'next/server'

// The publish webhook as Sanity signs it, sent straight to the route's handler (app/api/revalidate).

export const WEBHOOK_TEST_SECRET = 'a-test-only-revalidate-secret-0123456789'

/** Sends `change` to `post` (the route's POST, imported after the test's mocks) signed with the test secret. */
export async function sendWebhook(post: (request: NextRequest) => Promise<Response>, change: { _type: string; _id: string }) {
  const body = JSON.stringify(change)
  const request = new Request('http://localhost/api/revalidate', {
    method: 'POST',
    headers: { 'content-type': 'application/json', [SIGNATURE_HEADER_NAME]: await encodeSignatureHeader(body, Date.now(), WEBHOOK_TEST_SECRET) },
    body,
  })
  const response = await post(request as NextRequest)
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}
