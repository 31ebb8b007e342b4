import { describe, expect, it } from 'vitest'
import type { WaitlistEmailCopy } from '@/sanity/content/types'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'
import { renderErasureEmail, renderLinkEmail } from '@/components/waitlist/outbox/email'

const copy = seedEmailCopy()

describe('the erasure e-mail ("Delete me")', () => {
  it('renders the Sanity copy as HTML without images or links, and as plain text', async () => {
    const email = await renderErasureEmail({ copy, name: 'Ada <b>' })
    expect(email.subject).toBe(copy.erasureSubject)
    expect(email.html).not.toMatch(/<img|background-image|url\(/i)
    expect(email.html).not.toMatch(/<a\s|href=/i)
    expect(email.html).toContain(copy.erasurePreviewText)
    expect(email.html).toContain('Ada &lt;b&gt;')
    expect(email.html).not.toContain('Ada <b>')
    expect(email.text.replace('Ada <b>', '')).not.toMatch(/<\/?[a-z][^>]*>/i)
    expect(email.text).toContain('Hi Ada <b>,')
    for (const paragraph of copy.erasureBody.split('\n')) expect(email.text).toContain(paragraph)
    expect(email.text).toContain(copy.erasureFooter)
    // None of the confirmation e-mail's words: it is a different message.
    expect(email.text).not.toContain(copy.buttonLabel)
    expect(email.text).not.toContain(copy.footer)
  })

  it('has no words of its own: every word is the copy from Sanity (or the name)', async () => {
    const marked: WaitlistEmailCopy = {
      ...copy,
      senderName: 'Qsender',
      greeting: 'Qhello {name}',
      erasureSubject: 'Qsubject',
      erasurePreviewText: 'Qpreview',
      erasureBody: 'Qfirst\nQsecond',
      erasureFooter: 'Qfooter',
    }
    const email = await renderErasureEmail({ copy: marked, name: 'Qname' })
    expect(email.subject).toBe('Qsubject')
    for (const word of ['Qsender', 'Qhello Qname', 'Qfirst', 'Qsecond', 'Qfooter']) expect(email.text.toLowerCase()).toContain(word.toLowerCase())
    // What is left once the copy is taken out: no letters at all.
    const rest = email.text.replace(/q(sender|hello|name|preview|first|second|footer)/gi, '')
    expect(rest).not.toMatch(/\p{L}/u)
  })

  it('shares the link e-mails’ layout (sender heading, greeting, footer); it alone greets by name, the address having proven itself', async () => {
    const confirmation = await renderLinkEmail({
      copy,
      kind: 'confirmation_email',
      url: 'https://heardly.example/waitlist/confirm#token=T',
      expires: '30 November 2026, 14:05 UTC',
      unsubscribeUrl: 'https://heardly.example/waitlist/unsubscribe#token=U',
    })
    const erasure = await renderErasureEmail({ copy, name: 'Ada' })
    expect(erasure.text).toContain('Hi Ada,')
    expect(confirmation.text).toContain(copy.anonymousGreeting)
    for (const email of [confirmation, erasure]) expect(email.html).toContain('max-width:560px')
  })
})
