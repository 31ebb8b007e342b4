/**
 * The founders' sign-up feed: one Slack message per confirmed entry, through an incoming webhook
 * (@slack/webhook). The e-mail address goes only when the owner turns it on
 * (SLACK_INCLUDE_EMAIL=true). Values are the visitor's own words: Slack's mrkdwn control
 * characters are escaped so a name cannot ping a channel or forge a link.
 */
import { IncomingWebhook, type IncomingWebhookSendArguments } from '@slack/webhook'
import { describeWaitlistSource } from '@/components/waitlist/source'
import type { ClaimedEntry } from './dispatch'

export type SlackChannel = (body: IncomingWebhookSendArguments) => Promise<void>

/** Slack's three control characters (https://api.slack.com/reference/surfaces/formatting#escaping). */
export function slackEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
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
    text: `${headline}: ${slackEscape(entry.name)}${entry.project ? `, ${slackEscape(entry.project)}` : ''}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${headline}*` } },
      { type: 'section', fields: fields.map(([label, value]) => ({ type: 'mrkdwn', text: `*${label}*\n${slackEscape(value)}` })) },
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
