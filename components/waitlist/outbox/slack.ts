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
import { DEFAULT_LANGUAGE } from '@/lib/i18n/languages'
import type { ClaimedEntry } from './entry'

export type SlackChannel = (body: IncomingWebhookSendArguments) => Promise<void>

/** A visitor's value as Slack should show it: literal text on one line (never empty, which Slack refuses). */
export function slackLiteral(value: string): { type: 'plain_text'; text: string; emoji: false } {
  const text = value
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
  return { type: 'plain_text', text: text || '—', emoji: false }
}

/** "How they found us", from what the form recorded: campaign tags, referring site, first page. */
export function describeSource(entry: ClaimedEntry): string {
  return describeWaitlistSource(entry) ?? 'direct (no campaign or referring site)'
}

export function slackConfirmedBody(
  entry: ClaimedEntry,
  total: number,
  { includeEmail, language = DEFAULT_LANGUAGE }: { includeEmail: boolean; language?: string },
): IncomingWebhookSendArguments {
  const fields: [string, string][] = [
    ['Name', entry.name],
    ['Company', entry.project || '—'],
    ['How they found us', describeSource(entry)],
    // The language of the page they signed up on, and of every e-mail they get.
    ['Language', language],
    ...(includeEmail ? ([['E-mail', entry.email]] as [string, string][]) : []),
  ]
  const headline = `New confirmed sign-up on the waitlist (${total} confirmed so far)`
  return slackMessage(headline, fields)
}

/**
 * A message of ours: the headline (the notification's text, our words only: Slack parses it as
 * mrkdwn), then our labels and the values side by side, each value a literal of its own.
 */
function slackMessage(headline: string, fields: readonly [string, string][]): IncomingWebhookSendArguments {
  return {
    text: headline,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${headline}*` } },
      { type: 'section', fields: fields.flatMap(([label, value]) => [{ type: 'mrkdwn', text: `*${label}*` }, slackLiteral(value)]) },
    ],
    unfurl_links: false,
    unfurl_media: false,
  }
}

/** What the database writes when someone joins (public.waitlist_redeem_invitation). */
export type SlackJoinedPayload = { invited_at?: string; joined_at?: string; joined?: number; invited?: number }

/** "2 days 3 hours", "5 hours 10 minutes", "7 minutes": the two largest units of a duration. */
export function describeDuration(milliseconds: number): string {
  const minutes = Math.max(0, Math.round(milliseconds / 60_000))
  const units: [number, string][] = [
    [Math.floor(minutes / 1440), 'day'],
    [Math.floor((minutes % 1440) / 60), 'hour'],
    [minutes % 60, 'minute'],
  ]
  const first = units.findIndex(([amount]) => amount > 0)
  if (first === -1) return 'less than a minute'
  return units
    .slice(first, first + 2)
    .filter(([amount]) => amount > 0)
    .map(([amount, unit]) => `${amount} ${unit}${amount === 1 ? '' : 's'}`)
    .join(' ')
}

/** The founders hear that an invited person joined: how long after the invitation, and how many of those invited have. */
export function slackJoinedBody(entry: ClaimedEntry, payload: SlackJoinedPayload, { includeEmail }: { includeEmail: boolean }): IncomingWebhookSendArguments {
  const after =
    payload.invited_at && payload.joined_at
      ? `${describeDuration(Date.parse(payload.joined_at) - Date.parse(payload.invited_at))} after the invitation`
      : 'after the invitation'
  const headline = `An invited person joined (${payload.joined ?? 0} of ${payload.invited ?? 0} invited have joined)`
  const fields: [string, string][] = [
    ['Name', entry.name],
    ['Company', entry.project || '—'],
    ['Joined', after],
    ...(includeEmail ? ([['E-mail', entry.email]] as [string, string][]) : []),
  ]
  return slackMessage(headline, fields)
}

/** What the database writes when a rung is earned (supabase/schemas/18_rewards.sql). */
export type SlackRewardPayload = { rung?: string; kind?: 'places' | 'perk'; status?: 'granted' | 'held' }

/**
 * The founders hear of each rung earned, held or not: a held perk is theirs to approve (the
 * console's Rewards), so its line says so. The rung's key is the marketers' (a slug), shown as
 * literal text all the same.
 */
export function slackRewardBody(entry: ClaimedEntry, payload: SlackRewardPayload, { includeEmail }: { includeEmail: boolean }): IncomingWebhookSendArguments {
  const headline =
    payload.status === 'held'
      ? 'A perk was earned and waits for your approval (the console’s Rewards)'
      : payload.kind === 'places'
        ? 'A reward was earned: places up the line'
        : 'A perk was earned and granted'
  const fields: [string, string][] = [
    ['Name', entry.name],
    ['Company', entry.project || '—'],
    ['Rung', payload.rung ?? '—'],
    ['Kind', payload.kind === 'places' ? 'places' : 'perk'],
    ...(includeEmail ? ([['E-mail', entry.email]] as [string, string][]) : []),
  ]
  return slackMessage(headline, fields)
}

export function slackWebhookChannel(url: string): SlackChannel {
  // No retries inside the call: the outbox retries with backoff and records each failure.
  const webhook = new IncomingWebhook(url, { timeout: 15_000 })
  return async (body) => {
    await webhook.send(body)
  }
}
