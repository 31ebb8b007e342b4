/**
 * The e-mails that carry a link to the person's own page: the double opt-in e-mail (confirm your
 * address) and a fresh link asked for later. The link is a button, and written out under it for
 * programs that show no buttons. Anyone can make us send these to any address, so they hold
 * nothing a visitor typed: not the name (the greeting is the anonymous one), not the company.
 * Every word comes from the waitlist page in Sanity.
 */
import type { WaitlistEmailCopy } from '@/sanity/content/types'
import { fillTemplate } from '@/components/waitlist/template'
import { countedWords } from '@/sanity/rewards/ladder'
import { Link, Text } from '@react-email/components'
import { shareLinks } from '@/components/waitlist/share'
import { EmailAction, EmailLayout, EmailParagraphs, emailSmallText } from './email-layout'

/** An imported list's confirmation (supabase/schemas/16_imports.sql) says where their sign-up came from. */
export type LinkEmailKind = 'confirmation_email' | 'import_confirmation' | 'access_email'

export type LinkEmailProps = {
  copy: WaitlistEmailCopy
  kind: LinkEmailKind
  url: string
  /** Already formatted for people, e.g. "30 November 2026, 14:00 UTC". */
  expires: string
  /** The page that takes this address off the list (a person who never signed up may want to). */
  unsubscribeUrl: string
  /**
   * The person's referral link (`referralLink`, components/waitlist/link.ts) for the share links
   * under the first rung, with the site's origin it must be on; none in the new-link e-mail.
   */
  share?: { link: string; origin: string } | null
}

/** Each kind's own words; the sender, greeting and link hint are shared. */
export function linkEmailWords(copy: WaitlistEmailCopy, kind: LinkEmailKind) {
  const confirmation = {
    subject: copy.subject,
    previewText: copy.previewText,
    body: copy.body,
    buttonLabel: copy.buttonLabel,
    expiryNote: copy.expiryNote,
    footer: copy.footer,
  }
  if (kind === 'import_confirmation') {
    // The confirmation with words of its own; its button and expiry note are the confirmation's.
    return { ...confirmation, subject: copy.importSubject, previewText: copy.importPreviewText, body: copy.importBody, footer: copy.importFooter }
  }
  return kind === 'confirmation_email'
    ? confirmation
    : {
        subject: copy.accessSubject,
        previewText: copy.accessPreviewText,
        body: copy.accessBody,
        buttonLabel: copy.accessButtonLabel,
        expiryNote: copy.accessExpiryNote,
        footer: copy.accessFooter,
      }
}

export function LinkEmail({ copy, kind, url, expires, unsubscribeUrl, share }: LinkEmailProps) {
  const words = linkEmailWords(copy, kind)
  return (
    <EmailLayout
      language={copy.language}
      previewText={words.previewText}
      senderName={copy.senderName}
      greeting={copy.anonymousGreeting}
      footer={words.footer}
      unsubscribe={{ url: unsubscribeUrl, label: copy.unsubscribeLabel }}
    >
      <EmailParagraphs text={words.body} />
      <EmailAction url={url} label={words.buttonLabel} hint={copy.linkHint} note={fillTemplate(words.expiryNote, { date: expires })} />
      {kind === 'access_email' ? null : <FirstReward copy={copy} />}
      {kind === 'access_email' || !share ? null : <ShareLinks copy={copy} share={share} />}
    </EmailLayout>
  )
}

/**
 * The ladder's first rung, after the button: a reason to share from the first e-mail. The rung's
 * words are the marketers' (Sanity), not the visitor's. Nothing without a published ladder.
 */
function FirstReward({ copy }: { copy: WaitlistEmailCopy }) {
  const first = copy.rewards[0]
  if (!first) return null
  const words = countedWords({ one: copy.firstRewardOne, other: copy.firstRewardOther }, first.threshold, copy.language)
  return <EmailParagraphs text={fillTemplate(words, { n: first.threshold, reward: first.title })} />
}

/**
 * The share kit as links (issue #69): the referral link sent on by e-mail, WhatsApp, LinkedIn or
 * X with the marketers' words (components/waitlist/share.ts builds and encodes every href). The
 * links are ours to send: the referral code is the mailbox's own, never anything a visitor typed.
 */
function ShareLinks({ copy, share }: { copy: WaitlistEmailCopy; share: { link: string; origin: string } }) {
  let links: ReturnType<typeof shareLinks>
  try {
    links = shareLinks(share.link, { text: copy.shareText, subject: copy.shareSubject }, share.origin)
  } catch {
    // Not a referral link on the site (it always is, from dispatch.ts): the e-mail goes without them rather than not at all.
    return null
  }
  const items = [
    { href: links.email, label: copy.shareEmailLabel },
    { href: links.whatsapp, label: copy.shareWhatsappLabel },
    { href: links.linkedin, label: copy.shareLinkedinLabel },
    { href: links.x, label: copy.shareXLabel },
  ]
  return (
    <>
      <Text style={emailSmallText}>{copy.shareTitle}</Text>
      <Text style={emailSmallText}>
        {items.map((item, index) => (
          <span key={item.label}>
            {index > 0 ? ' · ' : null}
            <Link href={item.href} style={{ color: '#4338ca' }}>
              {item.label}
            </Link>
          </span>
        ))}
      </Text>
      <Text style={{ fontSize: 14, lineHeight: '20px', wordBreak: 'break-all' }}>
        <Link href={share.link} style={{ color: '#4338ca' }}>
          {share.link}
        </Link>
      </Text>
    </>
  )
}
