import type { NextRequest } from 'next/server'
import { serverEnv } from '@/lib/env'
import { configuredDispatch } from '@/components/waitlist/outbox/configured'
import { hasBearerSecret } from '@/lib/http/bearer'
import { syncExperiments } from '@/components/variants/sync'
import { syncLanguages } from '@/components/waitlist/languages-sync'
import { syncQuestions } from '@/components/waitlist/questions-sync'
import { syncRewards } from '@/components/waitlist/rewards-sync'
import { syncTasks } from '@/components/waitlist/tasks-sync'

// Never cached or prerendered: every call is a delivery run.
export const dynamic = 'force-dynamic'

/**
 * Delivers the waitlist's outbox (e-mails, Slack, the founders' webhooks). Called by the outbox's
 * insert trigger through pg_net on hosted Supabase (POST, immediate: supabase/schemas/07_outbox_wake.sql)
 * and by the host's scheduler (GET, as Vercel Cron calls from vercel.json; catch-up and retries), both with `Authorization: Bearer
 * $OUTBOX_DISPATCH_SECRET`. Concurrent calls are safe: each message is claimed under a lease.
 * The scheduler's run (GET) also refreshes the running experiments, the waitlist page's questions,
 * the languages and the reward ladder from Sanity: a safety net for a publish webhook that failed or
 * never came (components/variants/sync.ts, components/waitlist/questions-sync.ts,
 * components/waitlist/languages-sync.ts, components/waitlist/rewards-sync.ts,
 * components/waitlist/tasks-sync.ts).
 */
async function dispatch(request: NextRequest): Promise<Response> {
  if (!hasBearerSecret(request.headers.get('authorization'), serverEnv().outboxSecret)) {
    return Response.json({ ok: false, reason: 'unauthorized' }, { status: 401 })
  }
  if (request.method === 'GET') await Promise.all([syncExperiments(), syncQuestions(), syncLanguages(), syncRewards(), syncTasks()])
  const setup = configuredDispatch()
  if (!setup.ok) {
    console.error(`[outbox] Not configured, nothing sent: set ${setup.missing.join(', ')}.`)
    return Response.json({ ok: false, reason: 'not configured', missing: setup.missing }, { status: 503 })
  }
  try {
    const report = await setup.run()
    for (const error of report.errors) console.warn(`[outbox] Send failed, will retry: ${error}`)
    return Response.json({ ok: true, ...report, errors: report.errors.length })
  } catch (error) {
    console.error(`[outbox] Dispatch stopped: ${error instanceof Error ? error.message : String(error)}`)
    return Response.json({ ok: false, reason: 'dispatch failed' }, { status: 500 })
  }
}

export const POST = dispatch
export const GET = dispatch
