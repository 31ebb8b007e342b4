/**
 * The invitation (and its one reminder): the person's place came up. It goes to an address that
 * confirmed itself, sent because the founders chose to, so it greets them by name. The button opens
 * the product's app with the invitation's token; every word comes from the waitlist page in Sanity.
 */
import type { WaitlistEmailCopy } from '@/sanity/content/types'
import { fillTemplate } from '@/components/waitlist/template'
import { EmailAction, EmailLayout, EmailParagraphs } from './email-layout'

export type InvitationEmailKind = 'invitation_email' | 'reminder_email'

export type InvitationEmailProps = {
  copy: WaitlistEmailCopy
  kind: InvitationEmailKind
  name: string
  url: string
  /** Already formatted for people, e.g. "8 December 2026, 14:00 UTC". */
  expires: string
  unsubscribeUrl: string
}

/** Each kind's own words; the button, expiry note and footer are the invitation's. */
export function invitationEmailWords(copy: WaitlistEmailCopy, kind: InvitationEmailKind) {
  return kind === 'invitation_email'
    ? { subject: copy.invitationSubject, previewText: copy.invitationPreviewText, body: copy.invitationBody }
    : { subject: copy.reminderSubject, previewText: copy.reminderPreviewText, body: copy.reminderBody }
}

export function InvitationEmail({ copy, kind, name, url, expires, unsubscribeUrl }: InvitationEmailProps) {
  const words = invitationEmailWords(copy, kind)
  return (
    <EmailLayout
      language={copy.language}
      previewText={words.previewText}
      senderName={copy.senderName}
      greeting={fillTemplate(copy.greeting, { name })}
      footer={copy.invitationFooter}
      unsubscribe={{ url: unsubscribeUrl, label: copy.unsubscribeLabel }}
    >
      <EmailParagraphs text={words.body} />
      <EmailAction url={url} label={copy.invitationButtonLabel} hint={copy.linkHint} note={fillTemplate(copy.invitationExpiryNote, { date: expires })} />
    </EmailLayout>
  )
}
