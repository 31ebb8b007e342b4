import jsQR from 'jsqr'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { referralLink } from '@/components/waitlist/link'
import { isReferralCode, referralQrPath, referralShareImagePath, shareLinks, shareMessage } from '@/components/waitlist/share'
import { referralQrSvg } from '@/components/waitlist/referral-qr'
import { cleanDisplayName, referralShareHeadline } from '@/components/waitlist/share-image'
import { shareDisplayName } from '@/components/waitlist/share-name'
import { renderLinkEmail } from '@/components/waitlist/outbox/email'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'

// The share kit (issue #69): the hrefs the own page and the confirmation e-mail build, the QR code
// the server draws, and the share image's headline, which names nobody by default.

const ORIGIN = 'https://heardly.example'
const CODE = 'AbCdEfGhIjKlMnOpQr_-12'
const link = referralLink(ORIGIN, CODE, 'en')
const deLink = referralLink(ORIGIN, CODE, 'de')

/** Words as a marketer might type them: markup, URL syntax, quotes, emoji, a combining accent, right-to-left text. */
const ODD = { text: 'Join <b>me</b> & "us" #1 ?x=1&ref=evil 100% 🚀 Cafe\u0301 עברית +', subject: 'Hi & <script>alert(1)</script> #' }

describe('the share links', () => {
  it('lead to the waitlist page in the person’s language, with their code', () => {
    expect(link).toBe(`${ORIGIN}/waitlist?ref=${CODE}`)
    expect(deLink).toBe(`${ORIGIN}/de/waitlist?ref=${CODE}`)
  })

  it('carry any words as text inside their own parameter, the link unchanged and last', () => {
    for (const target of [link, deLink]) {
      const links = shareLinks(target, ODD, ORIGIN)
      const message = shareMessage(ODD, target)
      expect(message).toBe(`${ODD.text}\n${target}`)

      expect(links.email.startsWith('mailto:?subject=')).toBe(true)
      // RFC 6068: percent-encoded, a space never a "+" (mail programs would show the plus).
      expect(links.email).not.toMatch(/[<>"# ]|\+/)
      const mail = new URLSearchParams(links.email.slice('mailto:?'.length))
      expect([...mail.keys()]).toEqual(['subject', 'body'])
      expect(mail.get('subject')).toBe(ODD.subject)
      expect(mail.get('body')).toBe(message)

      const whatsapp = new URL(links.whatsapp)
      expect(whatsapp.origin + whatsapp.pathname).toBe('https://wa.me/')
      expect([...whatsapp.searchParams.keys()]).toEqual(['text'])
      expect(whatsapp.searchParams.get('text')).toBe(message)

      const linkedin = new URL(links.linkedin)
      expect(linkedin.origin + linkedin.pathname).toBe('https://www.linkedin.com/sharing/share-offsite/')
      expect([...linkedin.searchParams.entries()]).toEqual([['url', target]])

      const x = new URL(links.x)
      expect(x.origin + x.pathname).toBe('https://x.com/intent/post')
      expect([...x.searchParams.entries()]).toEqual([
        ['text', ODD.text],
        ['url', target],
      ])
      // No raw markup or fragment anywhere: nothing can end an attribute or the URL.
      for (const href of Object.values(links)) expect(href).not.toMatch(/[<>"#\s]/)
    }
  })

  it('refuse a link that is not a referral link on the site’s own origin', () => {
    const words = { text: 'x', subject: 'y' }
    for (const other of [
      `https://evil.example/waitlist?ref=${CODE}`,
      `http://heardly.example/waitlist?ref=${CODE}`,
      `${ORIGIN}/waitlist`,
      `${ORIGIN}/blog?ref=${CODE}`,
      `${ORIGIN}/../evil/waitlist?ref=${CODE}`.replace('/../evil', '/evil'),
      `${ORIGIN}/waitlist/confirm?ref=${CODE}`,
    ])
      expect(() => shareLinks(other, words, ORIGIN), other).toThrow()
  })

  it('know a referral code by the shape the database mints, and nothing else', () => {
    expect(isReferralCode(CODE)).toBe(true)
    for (const bad of ['', CODE.slice(1), `${CODE}x`, 'AbCdEfGhIjKlMnOpQr/.12', 'AbCdEfGhIjKlMnOpQr%2F2', 'ÄbCdEfGhIjKlMnOpQr_-12', `${CODE.slice(0, 21)}\n`])
      expect(isReferralCode(bad), JSON.stringify(bad)).toBe(false)
    expect(referralQrPath(CODE, 'de')).toBe(`/og/de/qr/${CODE}`)
    expect(referralShareImagePath(CODE, 'en')).toBe(`/og/en/ref/${CODE}`)
  })
})

describe('the QR code', () => {
  it('is an SVG without script that a phone reads back as the link', async () => {
    for (const target of [link, deLink]) {
      const svg = await referralQrSvg(target)
      expect(svg.startsWith('<svg')).toBe(true)
      expect(svg).not.toMatch(/<script|on\w+=|href=/i)
      // Drawn the same every time, so the route's answer is cached for good.
      expect(await referralQrSvg(target)).toBe(svg)
      const { data, info } = await sharp(Buffer.from(svg), { density: 300 })
        .flatten({ background: '#ffffff' })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true })
      const decoded = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)
      expect(decoded?.data).toBe(target)
    }
  })
})

describe('the share image’s headline', () => {
  const words = { title: 'Join the pilot', shareImageNamed: '{name} invites you' }

  it('names nobody by default: the lookup answers no name until the leaderboard is wired', async () => {
    expect(await shareDisplayName(CODE)).toBeNull()
    expect(referralShareHeadline(words, null)).toBe(words.title)
    expect(referralShareHeadline(words, '')).toBe(words.title)
    expect(referralShareHeadline(words, ' \u202e\u0000 ')).toBe(words.title)
  })

  it('carries a chosen name, without control or direction characters, composed and cut', () => {
    expect(referralShareHeadline(words, 'A.B.')).toBe('A.B. invites you')
    expect(cleanDisplayName('Ma\u202erk\u0007 \n  <b>x</b>')).toBe('Mark <b>x</b>')
    expect(cleanDisplayName('Cafe\u0301')).toBe('Café')
    expect(cleanDisplayName('👩‍👩‍👧'.repeat(50))).toBe('👩‍👩‍👧'.repeat(40))
  })
})

describe('the confirmation e-mail’s share links', () => {
  const copy = seedEmailCopy()
  const base = {
    copy,
    url: 'https://heardly.example/waitlist/confirm#token=T',
    expires: '1 January 2027',
    unsubscribeUrl: 'https://heardly.example/waitlist/unsubscribe#token=U',
  }

  it('carry the referral link by e-mail, WhatsApp, LinkedIn and X, encoded once', async () => {
    const email = await renderLinkEmail({ ...base, kind: 'confirmation_email', share: { link, origin: ORIGIN } })
    const links = shareLinks(link, { text: copy.shareText, subject: copy.shareSubject }, ORIGIN)
    expect(email.text).toContain(copy.shareTitle)
    expect(email.text).toContain(link)
    for (const href of Object.values(links)) expect(email.html).toContain(`href="${href.replace(/&/g, '&amp;')}"`)
    for (const label of [copy.shareEmailLabel, copy.shareWhatsappLabel, copy.shareLinkedinLabel, copy.shareXLabel]) expect(email.html).toContain(label)
  })

  it('are not in the new-link e-mail, nor where no code is known', async () => {
    const access = await renderLinkEmail({ ...base, kind: 'access_email', share: { link, origin: ORIGIN } })
    expect(access.text).not.toContain(copy.shareTitle)
    const none = await renderLinkEmail({ ...base, kind: 'confirmation_email', share: null })
    expect(none.text).not.toContain(copy.shareTitle)
    // A link off the site is never sent on; the confirmation itself still goes.
    const off = await renderLinkEmail({ ...base, kind: 'confirmation_email', share: { link: `https://evil.example/waitlist?ref=${CODE}`, origin: ORIGIN } })
    expect(off.text).not.toContain('evil.example')
    expect(off.text).toContain(base.url)
  })
})
