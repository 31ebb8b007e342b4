/**
 * The founders' sign-up feed: one Slack message per confirmed entry, through an incoming webhook
 * (@slack/webhook). The e-mail address goes only when the owner turns it on
 * (SLACK_INCLUDE_EMAIL=true). Values are the visitor's own words: Slack's mrkdwn control
 * characters are escaped so a name cannot ping a channel or forge a link.
 */
import { IncomingWebhook, type IncomingWebhookSendArguments } from '@slack/webhook'
import type { ClaimedEntry } from './dispatch'

export type SlackChannel = (body: IncomingWebhookSendArguments) => Promise<void>

/** Slack's three control characters (https://api.slack.com/reference/surfaces/formatting#escaping). */
export function slackEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** "How they found us", from what the form recorded: campaign tags, else the referring site. */
export function describeSource(entry: Pick<ClaimedEntry, 'utm_source' | 'utm_medium' | 'utm_campaign' | 'referrer_host' | 'landing_path'>): string {
  const campaign = [entry.utm_source, entry.utm_medium, entry.utm_campaign].filter(Boolean).join(' / ')
  const parts = [
    campaign ? `campaign ${campaign}` : null,
    entry.referrer_host ? `from ${entry.referrer_host}` : null,
    entry.landing_path ? `landed on ${entry.landing_path}` : null,
  ].filter(Boolean)
  return parts.length ? parts.join(', ') : 'direct (no campaign or referring site)'
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
