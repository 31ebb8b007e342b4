/**
 * The double opt-in e-mail, built with React Email: table layout and inline styles that mail
 * programs render, no images (nothing to block, nothing that tracks), the link written out
 * under the button for programs that show no buttons, and a plain-text part rendered from the
 * same element (components/waitlist/outbox/email.ts). Every word comes from the waitlist page in Sanity.
 */
import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components'
import type { WaitlistEmailCopy } from '@/lib/content/types'
import { fillTemplate } from '@/components/waitlist/template'

export type ConfirmationEmailProps = {
  copy: WaitlistEmailCopy
  name: string
  confirmUrl: string
  /** Already formatted for people, e.g. "30 November 2026, 14:00 UTC". */
  expires: string
}


export function ConfirmationEmail({ copy, name, confirmUrl, expires }: ConfirmationEmailProps) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{copy.previewText}</Preview>
      <Body style={{ backgroundColor: '#f8fafc', fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif', margin: 0, padding: '24px 0' }}>
        <Container style={{ backgroundColor: '#ffffff', border: '1px solid #e2e8f0', borderRadius: 12, maxWidth: 560, padding: '32px' }}>
          <Heading as="h1" style={{ color: '#0f172a', fontSize: 22, margin: '0 0 16px' }}>
            {copy.senderName}
          </Heading>
          <Text style={{ color: '#0f172a', fontSize: 16, lineHeight: '24px' }}>{fillTemplate(copy.greeting, { name })}</Text>
          {copy.body
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((paragraph, index) => (
              <Text key={index} style={{ color: '#334155', fontSize: 16, lineHeight: '24px' }}>
                {paragraph}
              </Text>
            ))}
          <Section style={{ margin: '24px 0', textAlign: 'center' }}>
            <Button href={confirmUrl} style={{ backgroundColor: '#4338ca', borderRadius: 8, color: '#ffffff', fontSize: 16, fontWeight: 600, padding: '12px 24px', textDecoration: 'none' }}>
              {copy.buttonLabel}
            </Button>
          </Section>
          <Text style={{ color: '#475569', fontSize: 14, lineHeight: '20px' }}>{copy.linkHint}</Text>
          <Text style={{ fontSize: 14, lineHeight: '20px', wordBreak: 'break-all' }}>
            <Link href={confirmUrl} style={{ color: '#4338ca' }}>
              {confirmUrl}
            </Link>
          </Text>
          <Text style={{ color: '#475569', fontSize: 14, lineHeight: '20px' }}>{fillTemplate(copy.expiryNote, { date: expires })}</Text>
          <Hr style={{ borderColor: '#e2e8f0', margin: '24px 0' }} />
          <Text style={{ color: '#64748b', fontSize: 12, lineHeight: '18px' }}>{copy.footer}</Text>
        </Container>
      </Body>
    </Html>
  )
}
