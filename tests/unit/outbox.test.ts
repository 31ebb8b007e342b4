import { describe, expect, it } from 'vitest'
import { formatExpiry, renderLinkEmail } from '@/components/waitlist/outbox/email'
import { redactedError, type ClaimedMessage } from '@/components/waitlist/outbox/dispatch'
import { hasBearerSecret } from '@/lib/http/bearer'
import { describeSource, slackConfirmedBody, slackLiteral, slackRewardBody } from '@/components/waitlist/outbox/slack'
import { confirmationUrl, hashToken, mintToken } from '@/components/waitlist/outbox/token'
import { tokenFromHash } from '@/components/waitlist/link'
import type { ClaimedEntry } from '@/components/waitlist/outbox/dispatch'
import type { WaitlistEmailCopy } from '@/sanity/content/types'
import { seedEmailCopy } from '../../tools/content/seed-email-copy'

const copy = seedEmailCopy()

describe('a bearer secret (the dispatch and redeem routes)', () => {
  const secret = 'a-long-enough-dispatch-secret-123'
  it('accepts only Authorization: Bearer <the secret>', () => {
    expect(hasBearerSecret(`Bearer ${secret}`, secret)).toBe(true)
    expect(hasBearerSecret(`bearer ${secret}`, secret)).toBe(true)
    for (const header of [null, '', secret, `Bearer ${secret}x`, `Bearer ${secret.slice(0, -1)}`, 'Bearer ', `Basic ${secret}`, `Bearer ${secret} extra`]) {
      expect(hasBearerSecret(header, secret), String(header)).toBe(false)
    }
  })
  it('accepts nothing when no secret is configured', () => {
    expect(hasBearerSecret('Bearer ', undefined)).toBe(false)
    expect(hasBearerSecret('Bearer undefined', undefined)).toBe(false)
    expect(hasBearerSecret('Bearer x', '')).toBe(false)
  })
})

describe('confirmation tokens', () => {
  it('are 256 random bits in base64url (43 characters), hashed with SHA-256', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => mintToken().token))
    expect(tokens.size).toBe(1000)
    const { token, hash } = mintToken()
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    expect(hash).toBe(hashToken(token))
    expect(hash).toMatch(/^[0-9a-f]{64}$/)
  })
  it('travel in the URL fragment, which no server sees, and come back out of it', () => {
    const url = confirmationUrl('https://heardly.example/', 'abc_DEF-123')
    expect(url).toBe('https://heardly.example/waitlist/confirm#token=abc_DEF-123')
    expect(tokenFromHash(new URL(url).hash)).toBe('abc_DEF-123')
    expect(tokenFromHash('')).toBeNull()
    expect(tokenFromHash('#other=1')).toBeNull()
  })
})

describe('the link e-mails (confirmation, and a new link to the person’s page)', () => {
  const url = 'https://heardly.example/waitlist/confirm#token=T'
  const expires = formatExpiry(new Date('2026-11-30T14:05:00Z'))

  it('renders the Sanity copy as HTML without images and as plain text with the link written out', async () => {
    const email = await renderLinkEmail({
      copy,
      kind: 'confirmation_email',
      url,
      expires,
      unsubscribeUrl: 'https://heardly.example/waitlist/unsubscribe#token=U',
    })
    expect(email.subject).toBe(copy.subject)
    expect(email.html).not.toMatch(/<img/i)
    expect(email.html).toContain(`href="${url}"`)
    expect(email.text).toContain(copy.anonymousGreeting)
    expect(email.text).toContain(url)
    expect(email.text).toContain('30 November 2026, 14:05 UTC')
    for (const paragraph of copy.body.split('\n')) expect(email.text).toContain(paragraph)
  })

  it('the new-link e-mail has its own words and the same link, greeting and layout', async () => {
    const email = await renderLinkEmail({ copy, kind: 'access_email', url, expires, unsubscribeUrl: 'https://heardly.example/waitlist/unsubscribe#token=U' })
    expect(email.subject).toBe(copy.accessSubject)
    for (const paragraph of copy.accessBody.split('\n')) expect(email.text).toContain(paragraph)
    expect(email.text).toContain(copy.accessButtonLabel)
    expect(email.text).toContain(copy.accessFooter)
    expect(email.text).not.toContain(copy.footer)
    expect(email.text).toContain(copy.anonymousGreeting)
    expect(email.text).toContain(url)
  })

  it("an imported list's confirmation says where their sign-up came from, with the confirmation's button and expiry", async () => {
    const email = await renderLinkEmail({
      copy,
      kind: 'import_confirmation',
      url,
      expires,
      unsubscribeUrl: 'https://heardly.example/waitlist/unsubscribe#token=U',
    })
    expect(email.subject).toBe(copy.importSubject)
    for (const paragraph of copy.importBody.split('\n')) expect(email.text).toContain(paragraph)
    expect(email.text).toContain(copy.importFooter)
    expect(email.text).not.toContain(copy.footer)
    expect(email.text).toContain(copy.buttonLabel)
    expect(email.text).toContain('30 November 2026, 14:05 UTC')
    expect(email.text).toContain(url)
  })

  it('has no place for anything a visitor typed: every word is Sanity’s copy, the link or the date', async () => {
    const marked: WaitlistEmailCopy = {
      ...copy,
      senderName: 'Qsender',
      anonymousGreeting: 'Qhello',
      greeting: 'Qnamed {name}',
      body: 'Qbody',
      buttonLabel: 'Qbutton',
      linkHint: 'Qhint',
      expiryNote: 'Qexpiry {date}',
      footer: 'Qfooter',
      previewText: 'Qpreview',
      unsubscribeLabel: 'Qleave',
    }
    const email = await renderLinkEmail({
      copy: marked,
      kind: 'confirmation_email',
      url,
      expires,
      unsubscribeUrl: 'https://heardly.example/waitlist/unsubscribe#token=U',
    })
    const leave = 'https://heardly.example/waitlist/unsubscribe#token=U'
    const rest = email.text
      .replace(/q(sender|hello|body|button|hint|expiry|footer|leave)/gi, '')
      .split(url)
      .join('')
      .split(expires)
      .join('')
      .split(leave)
      .join('')
    expect(rest).not.toMatch(/\p{L}/u)
    expect(email.text).not.toContain('Qnamed')
  })
})

describe('stored and reported errors', () => {
  const entry: ClaimedEntry = {
    id: 'x',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    project: '',
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    referrer_host: null,
    landing_path: null,
  }
  const message = (kind: 'confirmation_email' | 'access_email' | 'erasure_email' | 'slack_confirmed'): ClaimedMessage =>
    kind === 'erasure_email'
      ? { id: 'm', lease_id: 'l', attempts: 1, kind, payload: { email: 'ada@example.com', name: 'Ada Lovelace' }, entry: null }
      : kind === 'slack_confirmed'
        ? { id: 'm', lease_id: 'l', attempts: 1, kind, payload: {}, entry }
        : { id: 'm', lease_id: 'l', attempts: 1, kind, payload: {}, entry }
  it('never hold an address or the recipient’s name, for any kind', () => {
    for (const kind of ['confirmation_email', 'access_email', 'erasure_email', 'slack_confirmed'] as const) {
      const text = redactedError('EENVELOPE: 550 5.1.1 <ADA@Example.com>: no mailbox for ada lovelace (other.person@elsewhere.test)', message(kind))
      expect(text, kind).toBe('EENVELOPE: 550 5.1.1 <[address]>: no mailbox for [name] ([address])')
    }
  })
})

describe('the Slack message', () => {
  const entry: ClaimedEntry = {
    id: 'x',
    name: 'Ada',
    email: 'ada@example.com',
    project: '',
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    referrer_host: null,
    landing_path: null,
  }
  it('says where the sign-up came from, or that it came direct', () => {
    expect(describeSource(entry)).toBe('direct (no campaign or referring site)')
    expect(describeSource({ ...entry, utm_source: 'x', utm_campaign: 'y', landing_path: '/' })).toBe('campaign x / y, landed on /')
  })
  it('shows a visitor’s value as literal text on one line, never empty', () => {
    expect(slackLiteral('<@U123> *bold* :tada:\r\n\u2028next\tline')).toEqual({ type: 'plain_text', text: '<@U123> *bold* :tada: next line', emoji: false })
    expect(slackLiteral(' \n ')).toEqual({ type: 'plain_text', text: '—', emoji: false })
  })
  it('has a notification text with no visitor words, and no e-mail unless asked', () => {
    const body = slackConfirmedBody({ ...entry, name: 'Ada <!here>' }, 7, { includeEmail: false })
    expect(body.text).toBe('New confirmed sign-up on the waitlist (7 confirmed so far)')
    expect(JSON.stringify(body)).not.toContain('ada@example.com')
    expect(JSON.stringify(slackConfirmedBody(entry, 7, { includeEmail: true }))).toContain('ada@example.com')
  })
  it('a rung earned: a held perk says it waits for the founders, with the rung and kind, the visitor’s words literal, no e-mail unless asked', () => {
    const held = slackRewardBody({ ...entry, name: 'Ada <!here>' }, { rung: 'month-free', kind: 'perk', status: 'held' }, { includeEmail: false })
    expect(held.text).toBe('A perk was earned and waits for your approval (the console’s Rewards)')
    expect(JSON.stringify(held.blocks)).toContain('"text":"month-free"')
    expect(JSON.stringify(held.blocks)).toContain('{"type":"plain_text","text":"Ada <!here>","emoji":false}')
    expect(JSON.stringify(held)).not.toContain('ada@example.com')
    expect(slackRewardBody(entry, { rung: 'skip', kind: 'places', status: 'granted' }, { includeEmail: false }).text).toBe(
      'A reward was earned: places up the line',
    )
    expect(slackRewardBody(entry, { rung: 'badge', kind: 'perk', status: 'granted' }, { includeEmail: true }).text).toBe('A perk was earned and granted')
    expect(JSON.stringify(slackRewardBody(entry, { rung: 'badge', kind: 'perk', status: 'granted' }, { includeEmail: true }))).toContain('ada@example.com')
  })
})
