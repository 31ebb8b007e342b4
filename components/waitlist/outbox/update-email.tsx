/**
 * A post the founders chose to e-mail ("E-mail it to subscribers"), to a confirmed person who asked
 * for updates: greeted by name, the post's title and summary, a button to the post, and a link that
 * stops these e-mails and nothing else. The title and summary are the post's; every other word comes
 * from the waitlist page in Sanity.
 */
import { Text } from '@react-email/components'
import type { WaitlistEmailCopy } from '@/sanity/content/types'
import { fillTemplate } from '@/components/waitlist/template'
import { toPlainText } from '@/lib/content/plain-text'
import { EmailAction, EmailLayout, EmailParagraphs } from './email-layout'

export type UpdatePost = { title: string; excerpt: string }

export type UpdateEmailProps = {
  copy: WaitlistEmailCopy
  name: string
  post: UpdatePost
  /** The post's page, absolute. */
  url: string
  /** The leave page with this e-mail's updates-only token. */
  unsubscribeUrl: string
}

/** One line of plain text, whatever the title holds: a direction control must not reorder a Subject. */
export function updateEmailSubject(copy: WaitlistEmailCopy, post: UpdatePost): string {
  return toPlainText(fillTemplate(copy.updateSubject, { title: post.title }))
}

export function UpdateEmail({ copy, name, post, url, unsubscribeUrl }: UpdateEmailProps) {
  return (
    <EmailLayout
      language={copy.language}
      previewText={fillTemplate(copy.updatePreviewText, { title: post.title })}
      senderName={copy.senderName}
      greeting={fillTemplate(copy.updateGreeting, { name })}
      footer={copy.updateFooter}
      unsubscribe={{ url: unsubscribeUrl, label: copy.updateUnsubscribeLabel }}
    >
      <EmailParagraphs text={copy.updateIntro} />
      {/* Text, not a heading: the plain-text part would shout a heading in capitals, and the title is the author's as written. */}
      <Text style={{ color: '#0f172a', fontSize: 18, fontWeight: 700, lineHeight: '26px', margin: '24px 0 8px' }}>{post.title}</Text>
      {post.excerpt ? <EmailParagraphs text={post.excerpt} /> : null}
      <EmailAction url={url} label={copy.updateButtonLabel} hint={copy.linkHint} />
    </EmailLayout>
  )
}
