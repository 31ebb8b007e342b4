/**
 * The load check's third stage (`npm run load`): letting people in at scale. After the burst is
 * confirmed, one `waitlist_invite_next(N)` (what `npm run waitlist:invite -- --next N` calls)
 * invites the head of the line, and several dispatchers at once deliver the invitations into
 * maildev. Reconciled: exactly the N people the call named are invited in the database, each has
 * exactly one invitation message, marked sent, and exactly one e-mail arrived for each of them
 * and for nobody else, carrying the app link and the one-click unsubscribe headers.
 */
import { dispatchOutbox } from '../../components/waitlist/outbox/dispatch'
import { smtpEmailChannel } from '../../components/waitlist/outbox/email'
import { serviceClient } from '../../lib/supabase/service'
import { supabaseOutboxStore } from '../../components/waitlist/outbox/store'
import type { LoadTarget } from './load-waitlist'
import { byRecipient, drain, outboxMessages } from './load-confirmation'
import { receivedHeaders, startMaildev } from '../local/local-mail'
import { freePort } from '../local/run'
import { seedEmailCopy } from '../content/seed-email-copy'

export interface AdmissionReport {
  asked: number
  invited: number
  inviteSeconds: number
  messages: number
  emailsSent: number
  emailsReceived: number
  emailSeconds: number
  dispatchRuns: number
  problems: string[]
}

type Mail = { id: string; to: { address: string }[]; subject: string; text: string }

const APP = 'https://app.example.com'

export async function runAdmissionCheck(target: LoadTarget, count: number): Promise<AdmissionReport> {
  const problems: string[] = []
  const copy = seedEmailCopy()
  const [smtpPort, webPort] = [await freePort(), await freePort()]
  const mail = await startMaildev({ smtpPort, webPort })
  const owner = serviceClient(target.url, target.serviceRoleKey)
  try {
    const invitedCount = async () => (await owner.from('waitlist').select('id', { count: 'exact', head: true }).eq('status', 'invited')).count ?? 0
    const invitedBefore = await invitedCount()
    const messagesBefore = (await outboxMessages(owner, 'invitation_email')).length
    let started = performance.now()
    const { data, error } = await owner.rpc('waitlist_invite_next', { n: count, dry_run: false })
    if (error) throw new Error(`Could not invite: ${error.message}`)
    const inviteSeconds = (performance.now() - started) / 1000
    const chosen = data as { id: string; email: string }[]
    if (chosen.length !== count) problems.push(`asked for ${count} invitations, the line gave ${chosen.length}`)
    const wanted = new Set(chosen.map((person) => person.email.toLowerCase()))

    const newlyInvited = (await invitedCount()) - invitedBefore
    if (newlyInvited !== chosen.length) problems.push(`${newlyInvited} entries newly invited in the database, ${chosen.length} named by the call`)

    started = performance.now()
    const runs = await drain(() =>
      dispatchOutbox({
        store: supabaseOutboxStore(owner),
        email: smtpEmailChannel(`smtp://127.0.0.1:${smtpPort}`, 'waitlist@example.com'),
        slack: null,
        slackIncludeEmail: false,
        copy: async () => copy,
        appUrl: async () => APP,
        siteUrl: 'http://localhost:3000',
        maxMessages: 50,
      }),
    )
    const emailSeconds = (performance.now() - started) / 1000

    const ids = new Set(chosen.map((person) => person.id))
    const all = await outboxMessages(owner, 'invitation_email')
    const messages = all.filter((message) => ids.has(message.entry_id))
    const perEntry = new Map<string, number>()
    for (const message of messages) perEntry.set(message.entry_id, (perEntry.get(message.entry_id) ?? 0) + 1)
    if (all.length - messagesBefore !== ids.size || perEntry.size !== ids.size || [...perEntry.values()].some((n) => n !== 1)) {
      problems.push(
        `${all.length - messagesBefore} new invitation messages, ${perEntry.size} of the invited with one; expected exactly one for each of the ${ids.size} invited`,
      )
    }
    const unsent = messages.filter((message) => message.status !== 'sent')
    if (unsent.length) problems.push(`${unsent.length} invitation messages not marked sent (e.g. ${unsent[0]?.status})`)

    const inbox = ((await (await fetch(`http://127.0.0.1:${webPort}/api/email`)).json()) as Mail[]).filter((item) => item.subject === copy.invitationSubject)
    const received = byRecipient(inbox)
    const missing = [...wanted].filter((email) => !received.has(email))
    const twice = [...received].filter(([, list]) => list.length > 1)
    const strangers = [...received.keys()].filter((email) => !wanted.has(email))
    if (missing.length) problems.push(`${missing.length} invited people got no invitation, e.g. ${missing[0]}`)
    if (twice.length) problems.push(`${twice.length} people got more than one invitation, e.g. ${twice[0]?.[0]}`)
    if (strangers.length) problems.push(`${strangers.length} invitations to people not invited`)
    const unlinked: Mail[] = []
    for (const item of inbox) {
      const headers = await receivedHeaders(`http://127.0.0.1:${webPort}`, item.id)
      if (
        !item.text.includes(`${APP}/?invitation=`) ||
        headers['list-unsubscribe-post'] !== 'List-Unsubscribe=One-Click' ||
        !headers['list-unsubscribe']?.includes('/api/unsubscribe?token=')
      )
        unlinked.push(item)
    }
    if (unlinked.length) problems.push(`${unlinked.length} invitations without the app link or the one-click unsubscribe headers`)

    return {
      asked: count,
      invited: chosen.length,
      inviteSeconds,
      messages: messages.length,
      emailsSent: runs.sent,
      emailsReceived: inbox.length,
      emailSeconds,
      dispatchRuns: runs.runs,
      problems,
    }
  } finally {
    await mail.stop()
  }
}

export function formatAdmissionReport(report: AdmissionReport): string {
  return [
    `Admission:    ${report.invited} of the line invited by one call in ${report.inviteSeconds.toFixed(1)} s -> ${report.messages} outbox invitations, ` +
      `${report.emailsSent} sent (${report.dispatchRuns} dispatcher runs), ${report.emailsReceived} received in ${report.emailSeconds.toFixed(1)} s ` +
      `(${(report.emailsSent / Math.max(report.emailSeconds, 0.001)).toFixed(1)}/s)`,
    report.problems.length === 0
      ? 'Reconciliation OK: exactly the people the line named were invited, each e-mailed exactly once, with the app link and one-click unsubscribe.'
      : `Admission reconciliation FAILED:\n${report.problems.map((problem) => `  - ${problem}`).join('\n')}`,
  ].join('\n')
}
