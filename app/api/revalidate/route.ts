import { revalidateTag } from 'next/cache'
import type { NextRequest } from 'next/server'
import { serverEnv } from '@/lib/env'
import { SIGNATURE_HEADER_NAME, tagsForChange, verifyWebhook } from '@/lib/content/webhook'

/** Sanity's webhook on publish: the next request for an affected page renders it afresh. */
export async function POST(request: NextRequest) {
  const verdict = await verifyWebhook({
    body: await request.text(),
    signature: request.headers.get(SIGNATURE_HEADER_NAME),
    secret: serverEnv().revalidateSecret,
  })
  if (!verdict.ok) return Response.json({ revalidated: false, reason: verdict.reason }, { status: verdict.status })
  const tags = tagsForChange(verdict.change)
  // expire: 0, not stale-while-revalidate: the marketer expects the change on the next load.
  for (const tag of tags) revalidateTag(tag, { expire: 0 })
  return Response.json({ revalidated: true, tags, now: Date.now() })
}
