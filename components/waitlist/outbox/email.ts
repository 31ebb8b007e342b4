/**
 * The waitlist's e-mails (confirmation and access links, invitations, updates, rewards, erasure) over SMTP (nodemailer), so any provider works:
 * Resend, Postmark, SES, Supabase's SMTP, or maildev locally. Server only (it is given the SMTP credentials).
 */
import { render } from '@react-email/components'
import nodemailer from 'nodemailer'
import { createElement, type ReactElement } from 'react'
import { ErasureEmail, type ErasureEmailProps } from './erasure-email'
import { InvitationEmail, invitationEmailWords, type InvitationEmailProps } from './invitation-email'
import { LinkEmail, linkEmailWords, type LinkEmailProps } from './link-email'
import { RewardEmail, rewardEmailSubject, type RewardEmailProps } from './reward-email'
import { UpdateEmail, updateEmailSubject, type UpdateEmailProps } from './update-email'
import { DEFAULT_LANGUAGE, languageTag } from '@/lib/i18n/languages'

export type RenderedEmail = { subject: string; html: string; text: string }

/** HTML and the plain-text part, from one element. */
async function renderEmail(subject: string, element: ReactElement): Promise<RenderedEmail> {
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })])
  return { subject, html, text }
}

export function renderLinkEmail(props: LinkEmailProps): Promise<RenderedEmail> {
  return renderEmail(linkEmailWords(props.copy, props.kind).subject, createElement(LinkEmail, props))
}

export function renderInvitationEmail(props: InvitationEmailProps): Promise<RenderedEmail> {
  return renderEmail(invitationEmailWords(props.copy, props.kind).subject, createElement(InvitationEmail, props))
}

export function renderUpdateEmail(props: UpdateEmailProps): Promise<RenderedEmail> {
  return renderEmail(updateEmailSubject(props.copy, props.post), createElement(UpdateEmail, props))
}

export function renderRewardEmail(props: RewardEmailProps): Promise<RenderedEmail> {
  return renderEmail(rewardEmailSubject(props.copy, props.rung), createElement(RewardEmail, props))
}

export function renderErasureEmail(props: ErasureEmailProps): Promise<RenderedEmail> {
  return renderEmail(props.copy.erasureSubject, createElement(ErasureEmail, props))
}

export type OutgoingEmail = RenderedEmail & {
  /** `name` is empty for an address that has not proven it is the person's: no visitor text there. */
  to: { name: string; address: string }
  senderName: string
  /** The outbox message's id: the Message-ID, so a provider or inbox that dedupes by it can. */
  idempotencyKey: string
  /** RFC 8058 one-click unsubscribe: the address a mail program POSTs to (none for someone who has left). */
  unsubscribeUrl?: string
}

export type EmailChannel = (email: OutgoingEmail) => Promise<void>

/** "30 November 2026, 14:05 UTC" ("30. November 2026, 14:05 UTC" in German): the expiry as the e-mail states it. */
export function formatExpiry(date: Date, language: string = DEFAULT_LANGUAGE): string {
  return `${new Intl.DateTimeFormat(language === DEFAULT_LANGUAGE ? 'en-GB' : languageTag(language), {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    hourCycle: 'h23',
  })
    .format(date)
    .replace(/ (at|um) /, ', ')} UTC`
}

/**
 * Every timeout together (about 50 s), after the run's budget (RUN_BUDGET_MS, 45 s, in ./dispatch.ts),
 * stays under the outbox lease (2 minutes): a slow send is never taken for a dead dispatcher, so a
 * live send cannot be marked in doubt under its feet. A server that accepts the connection and never
 * greets fails after connection and greeting timeouts (a failed attempt, retried with backoff).
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }

/** `timeouts`: shorter ones for the fault tests (tests/faults/outbox.test.ts); a deployment keeps SMTP_TIMEOUTS. */
export function smtpEmailChannel(smtpUrl: string, fromAddress: string, timeouts: Partial<typeof SMTP_TIMEOUTS> = {}): EmailChannel {
  const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS, ...timeouts })
  const domain = fromAddress.split('@').pop() ?? 'localhost'
  return async (email) => {
    await transport.sendMail({
      from: { name: email.senderName, address: fromAddress },
      to: email.to.name ? { name: email.to.name, address: email.to.address } : email.to.address,
      subject: email.subject,
      html: email.html,
      text: email.text,
      messageId: `<${email.idempotencyKey}@${domain}>`,
      ...(email.unsubscribeUrl ? { list: { unsubscribe: email.unsubscribeUrl } } : {}),
      headers: { 'X-Entity-Ref-ID': email.idempotencyKey, ...(email.unsubscribeUrl ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}) },
    })
  }
}
