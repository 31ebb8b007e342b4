import { describe, expect, it } from 'vitest'
import { formatExpiry, renderConfirmationEmail } from '@/components/waitlist/outbox/email'
import { hasDispatchSecret } from '@/components/waitlist/outbox/secret'
import { describeSource, slackConfirmedBody, slackEscape } from '@/components/waitlist/outbox/slack'
import { confirmationUrl, hashConfirmationToken, mintConfirmationToken } from '@/components/waitlist/outbox/token'
import { tokenFromHash } from '@/components/waitlist/link'
import type { ClaimedEntry } from '@/components/waitlist/outbox/dispatch'
import type { WaitlistEmailCopy } from '@/lib/content/types'
import { readFileSync } from 'node:fs'

const copy = (JSON.parse(readFileSync('sanity/seed/documents/waitlistPage.json', 'utf8')) as { email: WaitlistEmailCopy }).email

describe('the dispatch secret', () => {
  const secret = 'a-long-enough-dispatch-secret-123'
  it('accepts only Authorization: Bearer <the secret>', () => {
    expect(hasDispatchSecret(`Bearer ${secret}`, secret)).toBe(true)
    expect(hasDispatchSecret(`bearer ${secret}`, secret)).toBe(true)
    for (const header of [null, '', secret, `Bearer ${secret}x`, `Bearer ${secret.slice(0, -1)}`, 'Bearer ', `Basic ${secret}`, `Bearer ${secret} extra`]) {
      expect(hasDispatchSecret(header, secret), String(header)).toBe(false)
    }
  })
  it('accepts nothing when no secret is configured', () => {
    expect(hasDispatchSecret('Bearer ', undefined)).toBe(false)
    expect(hasDispatchSecret('Bearer undefined', undefined)).toBe(false)
    expect(hasDispatchSecret('Bearer x', '')).toBe(false)
  })
})

describe('confirmation tokens', () => {
  it('are 256 random bits in base64url (43 characters), hashed with SHA-256', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => mintConfirmationToken().token))
    expect(tokens.size).toBe(1000)
    const { token, hash } = mintConfirmationToken()
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(token, 'base64url')).toHaveLength(32)
    expect(hash).toBe(hashConfirmationToken(token))
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

describe('the confirmation e-mail', () => {
  it('renders the Sanity copy as HTML without images and as plain text with the link written out', async () => {
    const email = await renderConfirmationEmail({ copy, name: 'Ada <b>', confirmUrl: 'https://heardly.example/waitlist/confirm#token=T', expires: formatExpiry(new Date('2026-11-30T14:05:00Z')) })
    expect(email.subject).toBe(copy.subject)
    expect(email.html).not.toMatch(/<img/i)
    expect(email.html).toContain('Ada &lt;b&gt;')
    expect(email.html).toContain('href="https://heardly.example/waitlist/confirm#token=T"')
    expect(email.text).toContain('Hi Ada <b>,')
    expect(email.text).toContain('https://heardly.example/waitlist/confirm#token=T')
    expect(email.text).toContain('expires on 30 November 2026, 14:05 UTC')
    for (const paragraph of copy.body.split('\n')) expect(email.text).toContain(paragraph)
  })
})

describe('the Slack message', () => {
  const entry: ClaimedEntry = { id: 'x', name: 'Ada', email: 'ada@example.com', project: '', utm_source: null, utm_medium: null, utm_campaign: null, referrer_host: null, landing_path: null }
  it('says where the sign-up came from, or that it came direct', () => {
    expect(describeSource(entry)).toBe('direct (no campaign or referring site)')
    expect(describeSource({ ...entry, utm_source: 'x', utm_campaign: 'y', landing_path: '/' })).toBe('campaign x / y, landed on /')
  })
  it('escapes Slack control characters', () => {
    expect(slackEscape('<@U123> & <!here>')).toBe('&lt;@U123&gt; &amp; &lt;!here&gt;')
  })
  it('has a plain-text fallback and no e-mail unless asked', () => {
    const body = slackConfirmedBody(entry, 7, { includeEmail: false })
    expect(body.text).toBe('New confirmed sign-up on the waitlist (7 confirmed so far): Ada')
    expect(JSON.stringify(body)).not.toContain('ada@example.com')
    expect(JSON.stringify(slackConfirmedBody(entry, 7, { includeEmail: true }))).toContain('ada@example.com')
  })
})
