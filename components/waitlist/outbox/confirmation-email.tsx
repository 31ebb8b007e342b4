/**
 * The double opt-in e-mail: the link as a button, and written out under it for programs that
 * show no buttons. Every word comes from the waitlist page in Sanity.
 */
import { Button, Link, Section, Text } from '@react-email/components'
import type { WaitlistEmailCopy } from '@/lib/content/types'
import { fillTemplate } from '@/components/waitlist/template'
import { EmailLayout, EmailParagraphs, emailSmallText } from './email-layout'

export type ConfirmationEmailProps = {
  copy: WaitlistEmailCopy
  name: string
  confirmUrl: string
  /** Already formatted for people, e.g. "30 November 2026, 14:00 UTC". */
  expires: string
}

export function ConfirmationEmail({ copy, name, confirmUrl, expires }: ConfirmationEmailProps) {
  return (
    <EmailLayout previewText={copy.previewText} senderName={copy.senderName} greeting={fillTemplate(copy.greeting, { name })} footer={copy.footer}>
      <EmailParagraphs text={copy.body} />
      <Section style={{ margin: '24px 0', textAlign: 'center' }}>
        <Button href={confirmUrl} style={{ backgroundColor: '#4338ca', borderRadius: 8, color: '#ffffff', fontSize: 16, fontWeight: 600, padding: '12px 24px', textDecoration: 'none' }}>
          {copy.buttonLabel}
        </Button>
      </Section>
      <Text style={emailSmallText}>{copy.linkHint}</Text>
      <Text style={{ fontSize: 14, lineHeight: '20px', wordBreak: 'break-all' }}>
        <Link href={confirmUrl} style={{ color: '#4338ca' }}>
          {confirmUrl}
        </Link>
      </Text>
      <Text style={emailSmallText}>{fillTemplate(copy.expiryNote, { date: expires })}</Text>
    </EmailLayout>
  )
}
