/**
 * A reward of the ladder (supabase/schemas/18_rewards.sql), to the person whose friends earned it:
 * greeted by name (they confirmed their address), the reward's title and description, and the
 * one-click way off the list every e-mail carries. Sent once per rung, when it is granted (a held
 * perk when a founder approves it). Every word comes from Sanity: the waitlist page's e-mails and
 * the ladder.
 */
import { Text } from '@react-email/components'
import type { WaitlistEmailCopy } from '@/sanity/content/types'
import type { LadderRung } from '@/sanity/rewards/ladder'
import { fillTemplate } from '@/components/waitlist/template'
import { toPlainText } from '@/lib/content/plain-text'
import { EmailLayout, EmailParagraphs } from './email-layout'

export type RewardEmailProps = {
  copy: WaitlistEmailCopy
  name: string
  rung: LadderRung
  /** The leave page with this e-mail's unsubscribe token. */
  unsubscribeUrl: string
}

/** One line of plain text, whatever the title holds. */
export function rewardEmailSubject(copy: WaitlistEmailCopy, rung: LadderRung): string {
  return toPlainText(fillTemplate(copy.rewardSubject, { reward: rung.title }))
}

export function RewardEmail({ copy, name, rung, unsubscribeUrl }: RewardEmailProps) {
  return (
    <EmailLayout
      language={copy.language}
      previewText={fillTemplate(copy.rewardPreviewText, { reward: rung.title })}
      senderName={copy.senderName}
      greeting={fillTemplate(copy.greeting, { name })}
      footer={copy.rewardFooter}
      unsubscribe={{ url: unsubscribeUrl, label: copy.unsubscribeLabel }}
    >
      <EmailParagraphs text={rung.approval === 'held' ? copy.rewardHeldBody : copy.rewardBody} />
      {/* Text, not a heading: the plain-text part would shout a heading in capitals. */}
      <Text style={{ color: '#0f172a', fontSize: 18, fontWeight: 700, lineHeight: '26px', margin: '24px 0 8px' }}>{rung.title}</Text>
      {rung.description ? <EmailParagraphs text={rung.description} /> : null}
    </EmailLayout>
  )
}
