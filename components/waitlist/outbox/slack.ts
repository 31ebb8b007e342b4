/**
 * The founders' sign-up feed: one Slack message per confirmed entry, through an incoming webhook
 * (@slack/webhook). The e-mail address goes only when the owner turns it on
 * (SLACK_INCLUDE_EMAIL=true). What the visitor typed is shown as literal, single-line text: each
 * value is its own plain_text object (Slack applies no mrkdwn to it: no *bold*, _italics_,
 * `code`, links, mentions or channel names; `emoji: false` keeps :smile: as typed), with any line
 * break folded into a space, and the notification's fallback text carries none of it.
 */
import { IncomingWebhook, type IncomingWebhookSendArguments } from '@slack/webhook'
import { describeWaitlistSource } from '@/components/waitlist/source'
import type { ClaimedEntry } from './dispatch'

export type SlackChannel = (body: IncomingWebhookSendArguments) => Promise<void>

/** A visitor's value as Slack should show it: literal text on one line (never empty, which Slack refuses). */
export function slackLiteral(value: string): { type: 'plain_text'; text: string; emoji: false } {
  const text = value.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ').replace(/ {2,}/g, ' ').trim()
  return { type: 'plain_text', text: text || '—', emoji: false }
}

/** "How they found us", from what the form recorded: campaign tags, referring site, first page. */
export function describeSource(entry: ClaimedEntry): string {
  return describeWaitlistSource(entry) ?? 'direct (no campaign or referring site)'
}

export function slackConfirmedBody(entry: ClaimedEntry, total: number, { includeEmail }: { includeEmail: boolean }): IncomingWebhookSendArguments {
  const fields: [string, string][] = [
    ['Name', entry.name],
    ['Company', entry.project || '—'],
    ['How they found us', describeSource(entry)],
    ...(includeEmail ? ([['E-mail', entry.email]] as [string, string][]) : []),
  ]
  const headline = `New confirmed sign-up on the waitlist (${total} confirmed so far)`
  return {
    // The notification's text: our words only (Slack parses it as mrkdwn).
    text: headline,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${headline}*` } },
      // Our labels and the visitor's values side by side, each value a literal of its own.
      { type: 'section', fields: fields.flatMap(([label, value]) => [{ type: 'mrkdwn', text: `*${label}*` }, slackLiteral(value)]) },
    ],
    unfurl_links: false,
    unfurl_media: false,
  }
}

export function slackWebhookChannel(url: string): SlackChannel {
  // No retries inside the call: the outbox retries with backoff and records each failure.
  const webhook = new IncomingWebhook(url, { timeout: 15_000 })
  return async (body) => {
    await webhook.send(body)
  }
}
