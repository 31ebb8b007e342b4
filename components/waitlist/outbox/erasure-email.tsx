/**
 * The e-mail confirming that "Delete me" erased an entry. It is sent after the entry is gone, from
 * the outbox message that alone still holds the address and name (the erasure_email payload,
 * supabase/schemas/07_outbox.sql); it has no link and no image. Every word comes from the waitlist
 * page in Sanity.
 */
import type { WaitlistEmailCopy } from '@/sanity/content/types'
import { fillTemplate } from '@/components/waitlist/template'
import { EmailLayout, EmailParagraphs } from './email-layout'

export type ErasureEmailProps = { copy: WaitlistEmailCopy; name: string }

export function ErasureEmail({ copy, name }: ErasureEmailProps) {
  return (
    <EmailLayout
      language={copy.language}
      previewText={copy.erasurePreviewText}
      senderName={copy.senderName}
      greeting={fillTemplate(copy.greeting, { name })}
      footer={copy.erasureFooter}
    >
      <EmailParagraphs text={copy.erasureBody} />
    </EmailLayout>
  )
}
