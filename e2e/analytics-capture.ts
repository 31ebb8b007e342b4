import { gunzipSync } from 'node:zlib'
import type { Page, Request } from '@playwright/test'

export type CapturedEvent = { event: string; properties: Record<string, unknown> }

/**
 * Stands in for PostHog behind the site's /ingest proxy: answers every request, and
 * decodes each batch (gzip or plain JSON) into the events it carries.
 */
export async function captureAnalytics(page: Page) {
  const requests: Request[] = []
  const events: CapturedEvent[] = []
  await page.route('**/ingest/**', async (route) => {
    const request = route.request()
    requests.push(request)
    if (request.method() === 'POST') events.push(...decodeBatch(request.url(), request.postDataBuffer()))
    await route.fulfill({ status: 200, contentType: 'application/json', body: '{"status":1}' })
  })
  return {
    requests,
    events,
    named: (name: string) => events.filter((e) => e.event === name),
  }
}

/** The events one request to /ingest carries (also e2e/prerender.spec.ts's, which Playwright does not drive). */
export function decodeBatch(address: string, body: Buffer | null | undefined): CapturedEvent[] {
  if (!body || body.length === 0) return []
  const url = new URL(address)
  const raw = url.searchParams.get('compression') === 'gzip-js' || (body[0] === 0x1f && body[1] === 0x8b) ? gunzipSync(body) : body
  let text = raw.toString('utf8')
  // Some transports send form-encoded `data=<base64>`.
  if (text.startsWith('data=')) text = Buffer.from(decodeURIComponent(text.slice(5)), 'base64').toString('utf8')
  const parsed = JSON.parse(text) as unknown
  const list = Array.isArray(parsed) ? parsed : ((parsed as { batch?: unknown[] }).batch ?? [parsed])
  return (list as CapturedEvent[]).filter((item) => typeof item?.event === 'string')
}
