/**
 * What every waitlist e-mail shares: React Email's table layout and inline styles that mail
 * programs render, no images (nothing to block, nothing that tracks), the sender's name as the
 * heading, the greeting, paragraphs, and a footer under a rule. The plain-text part is rendered
 * from the same element (components/waitlist/outbox/email.ts).
 */
import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components'
import { languageTag } from '@/lib/i18n/languages'
import type { ReactNode } from 'react'

export const emailText = { color: '#334155', fontSize: 16, lineHeight: '24px' } as const
export const emailSmallText = { color: '#475569', fontSize: 14, lineHeight: '20px' } as const

/** One paragraph per non-empty line: how the Studio's e-mail bodies are written. */
export function EmailParagraphs({ text }: { text: string }) {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((paragraph, index) => (
      <Text key={index} style={emailText}>
        {paragraph}
      </Text>
    ))
}

/**
 * The e-mail's one action: a button, the link written out under it for programs that show no
 * buttons, and a note (when the link expires; none for a link that does not).
 */
export function EmailAction({ url, label, hint, note }: { url: string; label: string; hint: string; note?: string }) {
  return (
    <>
      <Section style={{ margin: '24px 0', textAlign: 'center' }}>
        <Button
          href={url}
          style={{ backgroundColor: '#4338ca', borderRadius: 8, color: '#ffffff', fontSize: 16, fontWeight: 600, padding: '12px 24px', textDecoration: 'none' }}
        >
          {label}
        </Button>
      </Section>
      <Text style={emailSmallText}>{hint}</Text>
      <Text style={{ fontSize: 14, lineHeight: '20px', wordBreak: 'break-all' }}>
        <Link href={url} style={{ color: '#4338ca' }}>
          {url}
        </Link>
      </Text>
      {note ? <Text style={emailSmallText}>{note}</Text> : null}
    </>
  )
}

export function EmailLayout({
  language,
  previewText,
  senderName,
  greeting,
  footer,
  unsubscribe,
  children,
}: {
  /** The language the e-mail is written in: its `<html lang>`. */
  language: string
  previewText: string
  senderName: string
  greeting: string
  footer: string
  /** Every e-mail to a person on the list: a visible way off it, beside the mail program's one-click button. */
  unsubscribe?: { url: string; label: string }
  children: ReactNode
}) {
  return (
    <Html lang={languageTag(language)}>
      <Head />
      <Preview>{previewText}</Preview>
      <Body
        style={{
          backgroundColor: '#f8fafc',
          fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
          margin: 0,
          padding: '24px 0',
        }}
      >
        <Container style={{ backgroundColor: '#ffffff', border: '1px solid #e2e8f0', borderRadius: 12, maxWidth: 560, padding: '32px' }}>
          <Heading as="h1" style={{ color: '#0f172a', fontSize: 22, margin: '0 0 16px' }}>
            {senderName}
          </Heading>
          <Text style={{ ...emailText, color: '#0f172a' }}>{greeting}</Text>
          {children}
          <Hr style={{ borderColor: '#e2e8f0', margin: '24px 0' }} />
          <Text style={{ color: '#64748b', fontSize: 12, lineHeight: '18px' }}>{footer}</Text>
          {unsubscribe ? (
            <Text style={{ color: '#64748b', fontSize: 12, lineHeight: '18px' }}>
              <Link href={unsubscribe.url} style={{ color: '#475569', textDecoration: 'underline' }}>
                {unsubscribe.label}
              </Link>
            </Text>
          ) : null}
        </Container>
      </Body>
    </Html>
  )
}
