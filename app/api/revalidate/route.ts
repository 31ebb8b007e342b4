import { revalidateTag } from 'next/cache'
import type { NextRequest } from 'next/server'
import { serverEnv } from '@/lib/env'
import { readBodyCapped } from '@/lib/http/body'
import { MAX_WEBHOOK_BODY_BYTES, precheckWebhook, SIGNATURE_HEADER_NAME, tagsForChange, verifyWebhook, type WebhookVerdict } from '@/lib/content/webhook'
import { ADDRESS_TYPES, forgetAddresses } from '@/sanity/content/addresses'
import { broadcastOnPublish } from '@/components/waitlist/updates'
import { configuredBroadcast } from '@/components/waitlist/updates-configured'
import { syncExperiments } from '@/components/variants/sync'
import { syncLanguages } from '@/components/waitlist/languages-sync'
import { syncQuestions } from '@/components/waitlist/questions-sync'
import { syncRewards } from '@/components/waitlist/rewards-sync'
import { syncTasks } from '@/components/waitlist/tasks-sync'

/** The document type each set copied to the database is published as. */
const SYNCED_BY_TYPE = {
  experiment: 'experiments',
  waitlistQuestions: 'questions',
  siteLanguages: 'languages',
  waitlistRewards: 'rewards',
  waitlistTasks: 'tasks',
} as const

const refuse = (verdict: Extract<WebhookVerdict, { ok: false }>) => Response.json({ revalidated: false, reason: verdict.reason }, { status: verdict.status })

/**
 * Sanity's webhook on publish: the next request for an affected page renders it afresh. The
 * signature header is judged before the body is read, and the body is read only up to a few kB:
 * an unsigned or oversized request costs the server no memory. A published post marked "E-mail it
 * to subscribers" is then e-mailed, once (components/waitlist/updates.ts); if that fails the answer
 * is 500, after the revalidation, so Sanity delivers the webhook again and the retry e-mails it.
 * Every publish also refreshes the database's set of running experiments
 * (components/variants/sync.ts) before the pages change, so a sign-up from a just-started
 * experiment keeps its variant, and the waitlist page's questions at sign-up
 * (components/waitlist/questions-sync.ts), so the database knows a question before any form asks
 * it, the languages a sign-up may be in (components/waitlist/languages-sync.ts) and the reward
 * ladder (components/waitlist/rewards-sync.ts) and the research tasks (components/waitlist/tasks-sync.ts); when one of these documents' own publish could not
 * be synced the answer is 500 too, for Sanity's retry.
 */
export async function POST(request: NextRequest) {
  const signature = request.headers.get(SIGNATURE_HEADER_NAME)
  const secret = serverEnv().revalidateSecret
  const early = precheckWebhook({ signature, secret })
  if (early && !early.ok) return refuse(early)
  const read = await readBodyCapped(request, MAX_WEBHOOK_BODY_BYTES)
  if (!read.ok) return refuse({ ok: false, status: 413, reason: `body over ${MAX_WEBHOOK_BODY_BYTES} bytes (set the webhook projection to {_type, _id})` })
  const verdict = await verifyWebhook({ body: new TextDecoder().decode(read.bytes), signature, secret })
  if (!verdict.ok) return refuse(verdict)
  const [experiments, questions, languages, rewards, tasks] = await Promise.all([
    syncExperiments(),
    syncQuestions(),
    syncLanguages(),
    syncRewards(),
    syncTasks(),
  ])
  const synced = { experiments, questions, languages, rewards, tasks }
  const tags = tagsForChange(verdict.change)
  // expire: 0, not stale-while-revalidate: the marketer expects the change on the next load.
  for (const tag of tags) revalidateTag(tag, { expire: 0 })
  // The proxy's list of pages and redirects (sanity/content/addresses.ts) is kept apart from Next's cache.
  if (ADDRESS_TYPES.has(verdict.change._type)) await forgetAddresses()
  const broadcast = await broadcastOnPublish(verdict.change, configuredBroadcast())
  if (broadcast.kind === 'failed') {
    console.error(`[updates] Not e-mailed yet (the webhook answers 500, so Sanity retries): ${broadcast.reason}`)
    return Response.json({ revalidated: true, tags, broadcast, reason: broadcast.reason }, { status: 500 })
  }
  if (broadcast.kind === 'refused')
    console.error(`[updates] Not e-mailed, and a retry could not change that (fix the post in the Studio and publish it again): ${broadcast.reason}`)
  // The document's own set not stored: 500, so Sanity delivers the webhook again.
  const type = verdict.change._type
  const own = Object.hasOwn(SYNCED_BY_TYPE, type) ? SYNCED_BY_TYPE[type as keyof typeof SYNCED_BY_TYPE] : undefined
  const failure = own ? synced[own] : null
  if (failure?.kind === 'kept') return Response.json({ revalidated: true, tags, broadcast, ...synced, reason: failure.reason }, { status: 500 })
  return Response.json({ revalidated: true, tags, broadcast, ...synced, now: Date.now() })
}
