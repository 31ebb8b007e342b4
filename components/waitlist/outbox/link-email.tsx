/**
 * The e-mails that carry a link to the person's own page: the double opt-in e-mail (confirm your
 * address) and a fresh link asked for later. The link is a button, and written out under it for
 * programs that show no buttons. Anyone can make us send these to any address, so they hold
 * nothing a visitor typed: not the name (the greeting is the anonymous one), not the company.
 * Every word comes from the waitlist page in Sanity.
 */
import { Button, Link, Section, Text } from '@react-email/components'
import type { WaitlistEmailCopy } from '@/lib/content/types'
import { fillTemplate } from '@/components/waitlist/template'
import { EmailLayout, EmailParagraphs, emailSmallText } from './email-layout'

export type LinkEmailKind = 'confirmation_email' | 'access_email'

export type LinkEmailProps = {
  copy: WaitlistEmailCopy
  kind: LinkEmailKind
  url: string
  /** Already formatted for people, e.g. "30 November 2026, 14:00 UTC". */
  expires: string
}

/** Each kind's own words; the sender, greeting and link hint are shared. */
export function linkEmailWords(copy: WaitlistEmailCopy, kind: LinkEmailKind) {
  return kind === 'confirmation_email'
    ? { subject: copy.subject, previewText: copy.previewText, body: copy.body, buttonLabel: copy.buttonLabel, expiryNote: copy.expiryNote, footer: copy.footer }
    : { subject: copy.accessSubject, previewText: copy.accessPreviewText, body: copy.accessBody, buttonLabel: copy.accessButtonLabel, expiryNote: copy.accessExpiryNote, footer: copy.accessFooter }
}

export function LinkEmail({ copy, kind, url, expires }: LinkEmailProps) {
  const words = linkEmailWords(copy, kind)
  return (
    <EmailLayout previewText={words.previewText} senderName={copy.senderName} greeting={copy.anonymousGreeting} footer={words.footer}>
      <EmailParagraphs text={words.body} />
      <Section style={{ margin: '24px 0', textAlign: 'center' }}>
        <Button href={url} style={{ backgroundColor: '#4338ca', borderRadius: 8, color: '#ffffff', fontSize: 16, fontWeight: 600, padding: '12px 24px', textDecoration: 'none' }}>
          {words.buttonLabel}
        </Button>
      </Section>
      <Text style={emailSmallText}>{copy.linkHint}</Text>
      <Text style={{ fontSize: 14, lineHeight: '20px', wordBreak: 'break-all' }}>
        <Link href={url} style={{ color: '#4338ca' }}>
          {url}
        </Link>
      </Text>
      <Text style={emailSmallText}>{fillTemplate(words.expiryNote, { date: expires })}</Text>
    </EmailLayout>
  )
}
