/**
 * The load check's logic (tools/load/load-waitlist.ts) on a small burst against an in-memory
 * double at PRODUCTION limits, and its reconciliation on made-up answers. Counts only: timing
 * on a shared two-core machine proves nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLocalSupabase, type LocalSupabase } from '@/tools/supabase-local/server'
import { runAdmissionCheck } from '@/tools/load/load-admission'
import { runConfirmationCheck } from '@/tools/load/load-confirmation'
import { reconcileWebhooks, startFlakyReceiver } from '@/tools/load/load-webhooks'
import { serviceClient } from '@/lib/supabase/service'
import { assertLoopbackUrl, reconcile, runLoadCheck, validatePlan, type LoadPlan, type SignupRecord } from '@/tools/load/load-waitlist'

let local: LocalSupabase

beforeAll(async () => {
  local = await startLocalSupabase({ port: 0 })
})
afterAll(async () => {
  await local?.close()
})

// At the production per-client limit (50 per hour): the flood and the spoofed flood are cut there,
// 50 colleagues behind one address all get in.
const plan: LoadPlan = { clients: 10, perClient: 3, concurrency: 8, flood: 60, spoofed: 70, office: 50, clientLimit: 50, timeLimitMs: 90_000 }

describe('runLoadCheck against the double', () => {
  it('accepts the burst and the office, cuts the flood and the spoofed-header flood at the production limit, and reconciles with the database', async () => {
    const { rows: limits } = await local.db.query<{ per_client: number }>('select per_client from private.waitlist_limits')
    expect(limits[0]?.per_client).toBe(plan.clientLimit)

    const report = await runLoadCheck({ url: local.url, anonKey: local.anonKey, serviceRoleKey: local.serviceRoleKey }, plan)
    expect(report.problems).toEqual([])
    expect(report.ok).toBe(true)
    expect(report.burst).toMatchObject({ sent: 30, accepted: 30, limited: 0, failed: 0 })
    expect(report.flood).toMatchObject({ sent: 60, accepted: 50, limited: 10, failed: 0 })
    expect(report.spoofed).toMatchObject({ sent: 70, accepted: 50, limited: 20, failed: 0 })
    expect(report.office).toMatchObject({ sent: 50, accepted: 50, limited: 0, failed: 0 })
    expect(report.rows).toBe(180)
    // One company domain 50 times within the hour: flagged for the owner past the burst threshold (20), never refused.
    expect(report.flagged).toBe(30)

    const { rows } = await local.db.query<{ n: number }>(`select count(*)::int as n from public.waitlist where email like $1`, [`load.${report.runId}.%`])
    expect(rows[0]?.n).toBe(180)
  })

  it('carries every stored sign-up through double opt-in: one e-mail each, every link confirms, one Slack post each', async () => {
    const { rows } = await local.db.query<{ email: string }>('select email from public.waitlist')
    expect(rows.length).toBe(180)
    await local.db.exec(
      'update private.waitlist_confirmation_settings set retry_base_seconds = 0; update private.waitlist_webhook_settings set enabled = true, retry_base_seconds = 0',
    )
    const flaky = await startFlakyReceiver()
    const report = await runConfirmationCheck(
      { url: local.url, anonKey: local.anonKey, serviceRoleKey: local.serviceRoleKey },
      rows.map((row) => row.email),
      flaky.channel,
    )
    expect(report.problems).toEqual([])
    expect(report).toMatchObject({
      entries: 180,
      emailMessages: 180,
      emailsSent: 180,
      emailsReceived: 180,
      confirmed: 180,
      slackMessages: 180,
      slackPosts: 180,
    })
    // The webhook stage: a receiver failing one delivery in ten still hears each confirmation exactly once.
    const webhooks = await reconcileWebhooks(serviceClient(local.url, local.serviceRoleKey), flaky, report.confirmed).finally(() => flaky.receiver.close())
    expect(webhooks.problems).toEqual([])
    expect(webhooks).toMatchObject({ confirmed: 180, messages: 180, sent: 180, events: 180, duplicates: 0 })
    expect(webhooks.retries).toBe(webhooks.deliveries - 180)
    expect(webhooks.retries).toBeGreaterThanOrEqual(18)
  }, 180_000)

  it('lets the head of the line in: exactly the people one call names are invited, each e-mailed once', async () => {
    const report = await runAdmissionCheck({ url: local.url, anonKey: local.anonKey, serviceRoleKey: local.serviceRoleKey }, 120)
    expect(report.problems).toEqual([])
    expect(report).toMatchObject({ asked: 120, invited: 120, messages: 120, emailsSent: 120, emailsReceived: 120 })
    // Another run takes the next people, and nobody twice.
    const next = await runAdmissionCheck({ url: local.url, anonKey: local.anonKey, serviceRoleKey: local.serviceRoleKey }, 60)
    expect(next.problems).toEqual([])
    expect(next).toMatchObject({ invited: 60, messages: 60, emailsReceived: 60 })
  }, 180_000)

  it('reports a burst that exceeds the limit instead of passing it', async () => {
    await local.db.exec('update private.waitlist_limits set per_client = 2')
    try {
      // The plan claims a limit of 3; the database enforces 2.
      const report = await runLoadCheck(
        { url: local.url, anonKey: local.anonKey, serviceRoleKey: local.serviceRoleKey },
        { ...plan, clients: 3, clientLimit: 3, flood: 4, spoofed: 0, office: 0 },
      )
      expect(report.ok).toBe(false)
      expect(report.burst).toMatchObject({ accepted: 6, limited: 3 })
      expect(report.problems.join('\n')).toMatch(/burst: 6 of 9 accepted/)
      // What was accepted is still exactly what is stored.
      expect(report.problems.join('\n')).not.toMatch(/not stored|without a 201|more than once/)
    } finally {
      await local.db.exec('update private.waitlist_limits set per_client = 50')
    }
  })
})

describe('reconcile', () => {
  const small: LoadPlan = { clients: 2, perClient: 1, concurrency: 2, flood: 3, spoofed: 0, office: 0, clientLimit: 2, timeLimitMs: 1000 }
  const record = (phase: 'burst' | 'flood', email: string, outcome: SignupRecord['outcome']): SignupRecord => ({
    phase,
    client: phase === 'burst' ? email : 'flood',
    email,
    status: outcome === 'accepted' ? 201 : outcome === 'limited' ? 429 : 500,
    outcome,
    ms: 1,
  })
  const answers = [
    record('burst', 'a@x.test', 'accepted'),
    record('burst', 'b@x.test', 'accepted'),
    record('flood', 'f1@x.test', 'accepted'),
    record('flood', 'f2@x.test', 'accepted'),
    record('flood', 'f3@x.test', 'limited'),
  ]
  const stored = ['a@x.test', 'b@x.test', 'f1@x.test', 'f2@x.test'].map((email) => ({ email }))

  it('passes when answers and rows agree', () => {
    expect(reconcile(small, answers, stored)).toEqual([])
  })

  it('finds a lost sign-up', () => {
    expect(reconcile(small, answers, stored.slice(1)).join('\n')).toMatch(/1 sign-ups answered 201 but not stored, e.g. a@x.test/)
  })

  it('finds a row nobody was told about', () => {
    expect(reconcile(small, answers, [...stored, { email: 'f3@x.test' }]).join('\n')).toMatch(/1 rows stored without a 201/)
  })

  it('finds a duplicate row', () => {
    expect(reconcile(small, answers, [...stored, { email: 'A@x.test' }]).join('\n')).toMatch(/stored more than once/)
  })

  it('finds a flood that was not cut exactly at the limit', () => {
    const leaky = answers.map((answer) => (answer.email === 'f3@x.test' ? { ...answer, outcome: 'accepted' as const, status: 201 } : answer))
    expect(reconcile(small, leaky, [...stored, { email: 'f3@x.test' }]).join('\n')).toMatch(/flood: 3 accepted and 0 limited, expected exactly 2 and 1/)
  })

  it('reports failures with their reasons', () => {
    const failing = answers.map((answer) =>
      answer.email === 'b@x.test' ? { ...answer, outcome: 'failed' as const, reason: 'failed: boom (HTTP 500)' } : answer,
    )
    expect(
      reconcile(
        small,
        failing,
        stored.filter((row) => row.email !== 'b@x.test'),
      ).join('\n'),
    ).toMatch(/1 sign-ups failed: 1x failed: boom/)
  })
})

describe('guards', () => {
  it.each(['http://127.0.0.1:54321', 'http://localhost:3000', 'http://[::1]:54321', 'http://127.1.2.3'])('allows loopback %s', (url) => {
    expect(() => assertLoopbackUrl(url)).not.toThrow()
  })

  it.each(['https://abc.supabase.co', 'http://10.0.0.5:54321', 'http://192.168.1.2', 'http://127.0.0.1.example.com', 'not a url'])('refuses %s', (url) => {
    expect(() => assertLoopbackUrl(url)).toThrow()
  })

  it('refuses a burst that exceeds its own per-client limit, and runaway sizes', () => {
    expect(validatePlan({ ...plan, perClient: 51 })).toEqual([expect.stringMatching(/exceeds the per-client limit/)])
    expect(validatePlan({ ...plan, office: 51 })).toEqual([expect.stringMatching(/office \(51\) exceeds the per-client limit/)])
    expect(validatePlan({ ...plan, clients: 1000, perClient: 5, clientLimit: 5, flood: 1000, office: 5 }).join()).toBe('')
    expect(validatePlan({ ...plan, clients: 100_000, perClient: 5 }).join()).toMatch(/at most 100000/)
  })
})
