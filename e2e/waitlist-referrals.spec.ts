import type { Page } from '@playwright/test'
import { axeViolations } from './a11y'
import { captureAnalytics } from './analytics-capture'
import { expect, test } from './fixtures'
import { copy, literally, withValues as fill } from './seed-copy'
import { confirmByPress, waitlistForm } from './waitlist-form'
import { erasureMessages, rowsFor } from './waitlist-rows'
import { confirmLinkIn, emailTo } from './inbox'

// A person's place in line, their referral link and their own data, as they meet them: on the
// page their confirmation e-mail's link opens. e2e/seed/confirmation.sql confirmed three people
// hours ago; the third's link is below. A friend joins through the third's referral link and
// confirms through maildev, and the third moves up. Every browser request reaches the local double
// from 127.0.0.1, but the third was seeded by SQL, not signed up from this machine within the hour,
// so the friend's credit is not held as "the referrer's own network" (supabase/schemas/05_line.sql;
// held credits are tests/integration/waitlist-referral-holds.test.ts).

const { confirmPage, placePanel, email } = copy.waitlist
const THIRD = { email: 'third.in.line@example.com', link: '/waitlist/confirm#token=third-in-line-token-for-the-e2e-test-000000' }

async function placeShown(page: Page): Promise<{ place: number; total: number }> {
  const pattern = new RegExp(fill(literally(placePanel.placeText).replace(/\\([{}])/g, '$1'), { place: '(\\d+)', total: '(\\d+)' }))
  const text = (await page.getByText(pattern).textContent()) ?? ''
  const [, place, total] = pattern.exec(text) ?? []
  return { place: Number(place), total: Number(total) }
}

test.describe(() => {
  test.use({ consent: 'granted' })

  test('join through a referral link, confirm through the e-mail, and the referrer moves up; own data downloads and deletes', async ({ page, context }) => {
    const events = await captureAnalytics(page)
    await page.goto(THIRD.link)
    await expect(page.getByRole('heading', { level: 1, name: confirmPage.alreadyTitle })).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: placePanel.title })).toBeVisible()
    const before = await placeShown(page)
    // e2e/seed/confirmation.sql confirmed three people before them (the first and second in line,
    // and the person whose link expired, a month ago); people the other specs confirm come later.
    expect(before.place).toBe(4)
    await expect(page.getByText(fill(placePanel.referralsText, { n: 0 }))).toBeVisible()
    // The places a referral is worth come from the database, where the line is computed (its setting: 5).
    await expect(page.getByText(fill(placePanel.referralText, { places: 5 }))).toBeVisible()
    expect(await axeViolations(page)).toEqual([])
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await axeViolations(page)).toEqual([])
    await page.setViewportSize({ width: 1280, height: 720 })

    // The referral link: the waitlist page with a public code that names nobody.
    const link = await page.getByLabel(placePanel.linkLabel).inputValue()
    expect(link).toMatch(/\/waitlist\?ref=[A-Za-z0-9_-]{22}$/)
    expect(link).not.toMatch(/third|line/i)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.getByRole('button', { name: placePanel.copyLabel }).click()
    await expect(page.getByRole('status').filter({ hasText: placePanel.copiedLabel })).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)
    await expect.poll(() => events.events.map((event) => event.event)).toEqual(expect.arrayContaining(['waitlist_position_viewed', 'referral_link_copied']))
    // No place, code or count in analytics.
    expect(events.named('referral_link_copied')[0]?.properties).toMatchObject({ method: 'copy' })
    expect(JSON.stringify(events.events)).not.toContain(link.split('ref=')[1])

    // The share kit (components/waitlist/share-kit.tsx): every way of sending carries the same link
    // with the marketers' words, each href to the network's own address and nowhere else.
    const kit = page.getByTestId('share-kit')
    const hrefOf = async (name: string) => (await kit.getByRole('link', { name, exact: true }).getAttribute('href')) ?? ''
    const mailto = await hrefOf(placePanel.emailShareLabel)
    expect(mailto.startsWith('mailto:?subject=')).toBe(true)
    const mail = new URLSearchParams(mailto.slice('mailto:?'.length))
    expect(mail.get('subject')).toBe(placePanel.shareSubject)
    expect(mail.get('body')).toBe(`${placePanel.shareText}\n${link}`)
    const whatsapp = new URL(await hrefOf(placePanel.whatsappLabel))
    expect(whatsapp.origin + whatsapp.pathname).toBe('https://wa.me/')
    expect(whatsapp.searchParams.get('text')).toBe(`${placePanel.shareText}\n${link}`)
    const linkedin = new URL(await hrefOf(placePanel.linkedinLabel))
    expect(linkedin.origin + linkedin.pathname).toBe('https://www.linkedin.com/sharing/share-offsite/')
    expect(linkedin.searchParams.get('url')).toBe(link)
    const x = new URL(await hrefOf(placePanel.xLabel))
    expect(x.origin + x.pathname).toBe('https://x.com/intent/post')
    expect([x.searchParams.get('text'), x.searchParams.get('url')]).toEqual([placePanel.shareText, link])
    // Desktop Chromium has no navigator.share: no share button.
    await expect(kit.getByRole('button', { name: placePanel.shareLabel })).toHaveCount(0)
    // The QR code, drawn by the server as SVG, not by a script on the page.
    const qr = kit.getByRole('img', { name: placePanel.qrLabel })
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    const code = new URL(link).searchParams.get('ref')!
    const qrAnswer = await page.request.get(`/og/en/qr/${code}`)
    expect(qrAnswer.headers()['content-type']).toContain('image/svg+xml')
    expect(await qrAnswer.text()).not.toMatch(/<script/i)
    expect((await page.request.get('/og/en/qr/not-a-code')).status()).toBe(404)
    // The link's share image names nobody who did not opt in: it is the waitlist page's own image.
    const shareImage = await page.request.get(`/og/en/ref/${code}`)
    expect(shareImage.headers()['content-type']).toBe('image/png')
    expect(Buffer.compare(await shareImage.body(), await (await page.request.get('/og/en/waitlist')).body())).toBe(0)

    // A friend opens the link the kit sends (the e-mail's body) in their own browser, joins at once,
    // and confirms from their inbox: credited as any referral link is.
    const friendContext = await page.context().browser()!.newContext()
    const friend = await friendContext.newPage()
    const friendEmail = `friend.${Date.now()}@example.org`
    await friend.goto(mail.get('body')!.split('\n').at(-1)!)
    const form = waitlistForm(friend)
    await form.name.fill('A Friend')
    await form.email.fill(friendEmail)
    await form.submit.click()
    await expect(friend.getByRole('heading', { level: 1, name: copy.waitlist.confirmation.title })).toBeVisible()
    // Joined but not confirmed: counts for nothing yet.
    await page.goto('/')
    await page.goto(THIRD.link)
    await expect(page.getByText(fill(placePanel.referralsText, { n: 0 }))).toBeVisible()
    // The friend's confirmation e-mail carries the share kit as links, with the friend's own code.
    const friendMail = await emailTo(friendEmail, { subject: email.subject })
    expect(friendMail.text).toContain(email.shareTitle)
    const friendLink = /(http\S+\/waitlist\?ref=[A-Za-z0-9_-]{22})/.exec(friendMail.text)?.[1] ?? ''
    expect(friendLink).not.toBe(link)
    expect(friendMail.html).toContain(
      `href="https://wa.me/?${new URLSearchParams({ text: `${email.shareText}\n${friendLink}` }).toString().replace(/&/g, '&amp;')}"`,
    )
    expect(friendMail.html).toContain(`href="https://www.linkedin.com/sharing/share-offsite/?${new URLSearchParams({ url: friendLink })}"`)
    expect(friendMail.html).toContain('href="mailto:?subject=')
    expect(friendMail.html).toContain('href="https://x.com/intent/post?')
    await confirmByPress(friend, confirmLinkIn(friendMail))
    await friendContext.close()

    await page.goto('/')
    await page.goto(THIRD.link)
    await expect(page.getByText(fill(placePanel.referralsText, { n: 1 }))).toBeVisible()
    const after = await placeShown(page)
    expect(after.place).toBe(1)
    expect(after.total).toBe(before.total + 1)

    // Download my data: everything stored about them, as JSON.
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: placePanel.downloadLabel }).click()
    const file = await download
    const data = JSON.parse(await new Response((await file.createReadStream()) as unknown as ReadableStream).text()) as { entry: Record<string, unknown> }
    expect(data.entry).toMatchObject({ email: THIRD.email, name: 'Third In Line', project: 'Referrals Ltd', status: 'confirmed', referral_credits: 1 })
    expect(data.entry).not.toHaveProperty('token_hash')

    // Delete me: a second press, then gone.
    await page.getByRole('button', { name: placePanel.deleteLabel }).click()
    await expect(page.getByText(placePanel.deleteConfirmText)).toBeVisible()
    await expect(page.getByRole('button', { name: placePanel.cancelLabel })).toBeFocused()
    await page.getByRole('button', { name: placePanel.deleteConfirmLabel }).click()
    await expect(page.getByRole('heading', { level: 1, name: placePanel.deletedTitle })).toBeVisible()
    await expect(page.getByText(placePanel.deletedText)).toBeVisible()
    expect(await rowsFor(THIRD.email)).toEqual([])
    // The e-mail confirming it arrives at the deleted address, greeting them by name...
    const erasure = await emailTo(THIRD.email, { subject: email.erasureSubject })
    expect(erasure.to).toEqual([{ address: THIRD.email, name: 'Third In Line' }])
    expect(erasure.text).toContain(fill(email.greeting, { name: 'Third In Line' }))
    expect(erasure.html).not.toMatch(/<img/i)
    // ...and once it is marked sent, the outbox keeps neither the address nor the name.
    await expect.poll(async () => JSON.stringify(await erasureMessages())).not.toMatch(/third/i)
    expect(await erasureMessages()).toContainEqual({ status: 'sent', entry_id: null, payload: {} })
    // The friend stays on the list.
    expect(await rowsFor(friendEmail)).toHaveLength(1)
  })
})
