/**
 * The load check's second stage (`npm run load`): the burst carried through double opt-in. After
 * the sign-ups are reconciled, several dispatchers at once deliver the outbox into maildev (real
 * SMTP), every e-mail's link is confirmed through the public API (from many simulated clients),
 * the dispatchers deliver the resulting Slack messages to a local stand-in for Slack's webhook,
 * and everything is reconciled: every stored sign-up has exactly one confirmation message, sent
 * exactly once (one e-mail in the inbox per address, none for anyone else); every confirmation
 * caused exactly one Slack post, each with the total as of its confirmation (between 1 and N: two
 * confirmations committing at once may carry the same one, supabase/schemas/07_outbox.sql).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { dispatchOutbox, type DispatchReport } from '../../components/waitlist/outbox/dispatch'
import { smtpEmailChannel } from '../../components/waitlist/outbox/email'
import { slackWebhookChannel } from '../../components/waitlist/outbox/slack'
import { serviceClient } from '../../lib/supabase/service'
import { supabaseOutboxStore } from '../../components/waitlist/outbox/store'
import type { WebhookChannel } from '../../components/waitlist/outbox/webhook'
import { confirmWaitlistLink, tokenFromHash } from '../../components/waitlist/link'
import { loopbackAddress, loopbackFetch } from '../supabase-local/loopback-fetch'
import type { LoadTarget } from './load-waitlist'
import { startMaildev } from '../local/local-mail'
import { freePort } from '../local/run'
import { seedEmailCopy } from '../content/seed-email-copy'

export interface ConfirmationReport {
  entries: number
  /** Confirmation e-mails: outbox messages, messages marked sent, e-mails in the inbox. */
  emailMessages: number
  emailsSent: number
  emailsReceived: number
  /** Sends that failed and were retried (by the outbox, as in production): "reason" -> count. */
  retried: Map<string, number>
  confirmed: number
  slackMessages: number
  slackPosts: number
  dispatchRuns: number
  emailSeconds: number
  confirmSeconds: number
  slackSeconds: number
  problems: string[]
}

type Mail = { to: { address: string }[]; text: string }

const SITE = 'http://localhost:3000'
const DISPATCHERS = 4
// A network may confirm 30 links an hour: spread the confirmations like real visitors are.
const CONFIRMS_PER_CLIENT = 20

/**
 * Runs DISPATCHERS dispatchers side by side until none finds anything to claim. The caller sets
 * the retry backoff to 0 on its own double, so a failed send is retried in the next round (and
 * given up after max_attempts), instead of waiting out the production backoff.
 */
export async function drain(run: () => Promise<DispatchReport>): Promise<{ runs: number; sent: number; failed: number; errors: Map<string, number> }> {
  let runs = 0
  let sent = 0
  let failed = 0
  const errors = new Map<string, number>()
  for (;;) {
    const reports = await Promise.all(Array.from({ length: DISPATCHERS }, run))
    runs += reports.length
    sent += reports.reduce((sum, report) => sum + report.sent, 0)
    failed += reports.reduce((sum, report) => sum + report.failed, 0)
    for (const error of reports.flatMap((report) => report.errors)) {
      const reason = error.replace(/^\S+ [0-9a-f-]{36}: /, '')
      errors.set(reason, (errors.get(reason) ?? 0) + 1)
    }
    if (reports.every((report) => report.claimed === 0)) return { runs, sent, failed, errors }
  }
}

export type OutboxMessage = { entry_id: string; status: string; payload: Record<string, unknown> }

/** Every outbox message of `kind`: its entry, status and payload. Paged: the API returns at most 1000 rows per request. */
export async function outboxMessages(owner: SupabaseClient, kind: string): Promise<OutboxMessage[]> {
  const rows: OutboxMessage[] = []
  for (let from = 0; ; from += 1000) {
    const { data, error } = await owner
      .from('waitlist_outbox')
      .select('entry_id,status,payload')
      .eq('kind', kind)
      .order('id')
      .range(from, from + 999)
    if (error) throw new Error(`Could not read the outbox: ${error.message}`)
    rows.push(...(data as OutboxMessage[]))
    if (data.length < 1000) return rows
  }
}

/** Who got how many e-mails in a maildev inbox, by lower-cased address. */
export function byRecipient<T extends { to: { address: string }[] }>(inbox: readonly T[]): Map<string, T[]> {
  const received = new Map<string, T[]>()
  for (const item of inbox) {
    const to = item.to[0]?.address.toLowerCase() ?? ''
    received.set(to, [...(received.get(to) ?? []), item])
  }
  return received
}

/** `webhook`: where the confirmations' webhooks go (tools/load/load-webhooks.ts); without it they are skipped. */
export async function runConfirmationCheck(target: LoadTarget, emails: readonly string[], webhook: WebhookChannel | null = null): Promise<ConfirmationReport> {
  const problems: string[] = []
  const copy = seedEmailCopy()
  const [smtpPort, webPort] = [await freePort(), await freePort()]
  const mail = await startMaildev({ smtpPort, webPort })
  const slackBodies: string[] = []
  const slack = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    request.on('end', () => {
      slackBodies.push(body)
      response.writeHead(200).end('ok')
    })
  })
  await new Promise<void>((resolve) => slack.listen(0, '127.0.0.1', resolve))
  const owner = serviceClient(target.url, target.serviceRoleKey)
  try {
    const options = {
      store: supabaseOutboxStore(owner),
      email: smtpEmailChannel(`smtp://127.0.0.1:${smtpPort}`, 'waitlist@example.com'),
      slack: slackWebhookChannel(`http://127.0.0.1:${(slack.address() as AddressInfo).port}/services/load`),
      slackIncludeEmail: false,
      webhook,
      copy: async () => copy,
      appUrl: async () => 'https://app.example.com',
      siteUrl: SITE,
      maxMessages: 50,
    }
    const wanted = new Set(emails.map((email) => email.toLowerCase()))

    let started = performance.now()
    const emailRuns = await drain(() => dispatchOutbox(options))
    const emailSeconds = (performance.now() - started) / 1000

    const outbox = (kind: string) => outboxMessages(owner, kind)
    const emailMessages = await outbox('confirmation_email')
    const perEntry = new Map<string, number>()
    for (const message of emailMessages) perEntry.set(message.entry_id, (perEntry.get(message.entry_id) ?? 0) + 1)
    if (perEntry.size !== wanted.size || [...perEntry.values()].some((n) => n !== 1)) {
      problems.push(`${emailMessages.length} confirmation messages for ${perEntry.size} entries, expected exactly one for each of ${wanted.size}`)
    }
    const unsent = emailMessages.filter((message) => message.status !== 'sent')
    if (unsent.length) problems.push(`${unsent.length} confirmation messages not marked sent (e.g. ${unsent[0]?.status})`)

    const inbox = (await (await fetch(`http://127.0.0.1:${webPort}/api/email`)).json()) as Mail[]
    const received = byRecipient(inbox)
    const missing = [...wanted].filter((email) => !received.has(email))
    const twice = [...received].filter(([, list]) => list.length > 1)
    const strangers = [...received.keys()].filter((email) => !wanted.has(email))
    if (missing.length) problems.push(`${missing.length} sign-ups got no e-mail, e.g. ${missing[0]}`)
    if (twice.length) problems.push(`${twice.length} addresses got more than one e-mail, e.g. ${twice[0]?.[0]}`)
    if (strangers.length) problems.push(`${strangers.length} e-mails to addresses not signed up in this run`)

    started = performance.now()
    let confirmed = 0
    const links = inbox.map((item) => tokenFromHash(/#token=[A-Za-z0-9_-]+/.exec(item.text)?.[0] ?? ''))
    await Promise.all(
      Array.from({ length: Math.ceil(links.length / CONFIRMS_PER_CLIENT) }, async (_, client) => {
        const backend = { url: target.url, anonKey: target.anonKey }
        const address = loopbackAddress(200_000 + client)
        const fetchFrom = loopbackFetch(address)
        for (const token of links.slice(client * CONFIRMS_PER_CLIENT, (client + 1) * CONFIRMS_PER_CLIENT)) {
          const answer = token ? await confirmWaitlistLink(backend, token, fetchFrom) : 'invalid'
          if (answer === 'confirmed') confirmed += 1
          else problems.push(`a link answered ${answer}`)
        }
      }),
    )
    const confirmSeconds = (performance.now() - started) / 1000

    started = performance.now()
    const slackRuns = await drain(() => dispatchOutbox(options))
    const slackSeconds = (performance.now() - started) / 1000
    const slackMessages = await outbox('slack_confirmed')
    if (slackMessages.length !== confirmed) problems.push(`${slackMessages.length} Slack messages for ${confirmed} confirmations`)
    if (slackMessages.some((message) => message.status !== 'sent')) problems.push('Slack messages not all marked sent')
    if (slackBodies.length !== confirmed) problems.push(`${slackBodies.length} Slack posts for ${confirmed} confirmations`)
    const totals = slackBodies.map((body) => Number(/\((\d+) confirmed so far\)/.exec(body)?.[1]))
    const { count: before } = await createClient(target.url, target.serviceRoleKey, { auth: { persistSession: false } })
      .from('waitlist')
      .select('id', { count: 'exact', head: true })
      .eq('status', 'confirmed')
    if (totals.some((total) => !(total >= 1 && total <= (before ?? 0)))) problems.push(`a Slack total outside 1..${before}`)

    return {
      entries: wanted.size,
      emailMessages: emailMessages.length,
      emailsSent: emailRuns.sent,
      emailsReceived: inbox.length,
      retried: new Map([...emailRuns.errors, ...slackRuns.errors]),
      confirmed,
      slackMessages: slackMessages.length,
      slackPosts: slackBodies.length,
      dispatchRuns: emailRuns.runs + slackRuns.runs,
      emailSeconds,
      confirmSeconds,
      slackSeconds,
      problems,
    }
  } finally {
    await new Promise((resolve) => slack.close(resolve))
    await mail.stop()
  }
}

export function formatConfirmationReport(report: ConfirmationReport): string {
  return [
    `Confirmation: ${report.entries} sign-ups -> ${report.emailMessages} outbox e-mails, ${report.emailsSent} sent by ${DISPATCHERS} dispatchers at once ` +
      `(${report.dispatchRuns} runs), ${report.emailsReceived} received in ${report.emailSeconds.toFixed(1)} s (${(report.emailsSent / Math.max(report.emailSeconds, 0.001)).toFixed(1)}/s)`,
    `              ${report.confirmed} links confirmed in ${report.confirmSeconds.toFixed(1)} s; ${report.slackMessages} Slack messages, ${report.slackPosts} posts in ${report.slackSeconds.toFixed(1)} s`,
    ...(report.retried.size
      ? [`              sends failed and retried by the outbox: ${[...report.retried].map(([reason, n]) => `${n}x ${reason}`).join('; ')}`]
      : []),
    report.problems.length === 0
      ? 'Reconciliation OK: every sign-up had exactly one confirmation e-mail, sent and received exactly once; every confirmation exactly one Slack post.'
      : `Confirmation reconciliation FAILED:\n${report.problems.map((problem) => `  - ${problem}`).join('\n')}`,
  ].join('\n')
}
