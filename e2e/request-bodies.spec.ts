import { encodeSignatureHeader } from '@sanity/webhook'
import { E2E } from '../tools/test/e2e-env'
import { expect, test } from './fixtures'
import { pidListeningOn, pour, residentMb } from './server-memory'

// An attacker with curl cannot make the server hold a large body: the routes anyone can call
// judge what they can before reading, and read at most a few kB (the webhook) or 1 MB (/ingest).
// The server's resident memory is sampled while three 300 MB bodies arrive at once.

const site = `http://127.0.0.1:${E2E.sitePort}`

async function peakGrowthWhile(work: () => Promise<unknown>): Promise<number> {
  const pid = pidListeningOn(E2E.sitePort)
  const before = residentMb(pid)
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, residentMb(pid))), 25)
  try {
    await work()
  } finally {
    clearInterval(sampler)
  }
  return Math.max(peak, residentMb(pid)) - before
}

test.describe(() => {
  test.slow()

  test('three unsigned 300 MB POSTs to /api/revalidate are refused (401) without the server holding them', async () => {
    let statuses: (number | null)[] = []
    const growth = await peakGrowthWhile(async () => {
      statuses = await Promise.all([1, 2, 3].map(() => pour(`${site}/api/revalidate`, 300)))
    })
    expect(statuses).toEqual([401, 401, 401])
    expect(growth, `the server grew ${growth.toFixed(0)} MB`).toBeLessThan(64)
  })

  test('a signed-looking but oversized body is refused (413) after reading only its first kB', async () => {
    // A fresh, well-formed header (with the wrong key): it passes the first look, not the cap.
    const signature = await encodeSignatureHeader('{}', Date.now(), 'not-the-secret')
    let statuses: (number | null)[] = []
    const growth = await peakGrowthWhile(async () => {
      statuses = await Promise.all([1, 2, 3].map(() => pour(`${site}/api/revalidate`, 100, { 'sanity-webhook-signature': signature })))
    })
    expect(statuses).toEqual([413, 413, 413])
    expect(growth, `the server grew ${growth.toFixed(0)} MB`).toBeLessThan(64)
  })

  test('/ingest refuses a body over 1 MB (413) without forwarding or holding it', async () => {
    let status: number | null = null
    const growth = await peakGrowthWhile(async () => {
      status = await pour(`${site}/ingest/e/`, 200)
    })
    expect(status).toBe(413)
    expect(growth, `the server grew ${growth.toFixed(0)} MB`).toBeLessThan(64)
  })

  test('300 MB POSTs to pages, known or not, are not held for the proxy that looks their addresses up', async () => {
    const growth = await peakGrowthWhile(() => Promise.all(['/', '/about', '/no-such-page'].map((path) => pour(`${site}${path}`, 300))))
    expect(growth, `the server grew ${growth.toFixed(0)} MB`).toBeLessThan(64)
  })

  test('the dispatch route reads no body of a call without its secret', async () => {
    const growth = await peakGrowthWhile(() => Promise.all([1, 2, 3].map(() => pour(`${site}/api/outbox/dispatch`, 300))))
    expect(growth, `the server grew ${growth.toFixed(0)} MB`).toBeLessThan(64)
  })
})
