import type { Page } from '@playwright/test'
import { decideCredit, listHeldCredits } from '../tools/owner/credits'
import { writeWaitlistCsv, type OwnerClient } from '../tools/owner/owner'
import { editorsRewardsExample } from '../tools/content/experiment-example'
import { admittedPerson, emptyTheLine, startOwnerConsole, withOwnBrowser } from './admission'
import { axeViolations } from './a11y'
import { expect, test } from './fixtures'
import { confirmLinkIn, emailsTo, emailTo } from './inbox'
import { publishLocally } from './local-publish'
import { reflowOffenders } from './reflow'
import { copy, withValues as fill } from './seed-copy'
import { outboxSettled, owner } from './waitlist-rows'
import { webhookEvents } from './webhooks'

// The reward ladder, end to end: the editors' guide's example published through `content:publish`,
// then a person in English and one in German followed as their friends confirm: the first rung in
// their confirmation e-mail and on their page, credits held (every page of the suite signs up from
// 127.0.0.1, the referrer's own network) until a founder grants them, each rung earned once with
// its e-mail in their language and its `reward.earned` webhook (verified with standardwebhooks), a
// held perk approved in the founders' console, and the export. An admission spec
// (playwright.config.ts): it moves people up the line, which the other specs read.

const example = editorsRewardsExample()
const words = { en: copy.waitlist, de: copy.doc('waitlistPage-de', 'waitlistPage') } as const
type Language = keyof typeof words
const rungTitle = (key: string, language: Language) => example.rungs.find((rung) => rung.key === key)!.title.find((entry) => entry.language === language)!.text
const stamp = Date.now().toString(36)
const ownerClient = owner as unknown as OwnerClient
const referrers = { en: admittedPerson('Rungen', stamp), de: admittedPerson('Rungde', stamp) }

test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  test.setTimeout(120_000)
  expect(await publishLocally([example])).toMatch(/Revalidated waitlistRewards/)
})
test.afterAll(async () => {
  test.setTimeout(120_000)
  // The seed's own: no ladder.
  await publishLocally([{ _id: example._id, _type: example._type, rungs: [] }])
})

/** Signs up in `language` (through `ref`'s link, if given), confirms from the e-mail; returns that e-mail and its link. */
async function joinAndConfirm(page: Page, who: { name: string; email: string }, language: Language, ref?: string) {
  const path = `${language === 'en' ? '' : `/${language}`}/waitlist${ref ? `?ref=${ref}` : ''}`
  await page.goto(path)
  await page.locator('#waitlist-name').fill(who.name)
  await page.locator('#waitlist-email').fill(who.email)
  await page.locator('form[aria-labelledby="waitlist-form-title"] button[type="submit"]').click()
  await expect(page.locator('#confirmation-title')).toBeVisible()
  const mail = await emailTo(who.email, { subject: words[language].email.subject })
  const link = confirmLinkIn(mail)
  await page.goto(link)
  await page.getByRole('button', { name: words[language].confirmPage.confirmLabel }).click()
  await expect(page.getByRole('heading', { level: 1, name: words[language].confirmPage.confirmedTitle })).toBeVisible()
  return { mail, link }
}

async function referralCodeOf(email: string): Promise<string> {
  const { data, error } = await owner.from('waitlist').select('referral_code').eq('email', email).single()
  if (error) throw new Error(error.message)
  return (data as { referral_code: string }).referral_code
}

/** Grants the referrer's held credits, as a founder does once they have looked (tools/owner/credits.ts, in-process). */
async function grantHeldCredits(referrerEmail: string): Promise<number> {
  const held = (await listHeldCredits(ownerClient)).filter((credit) => credit.referrer_email === referrerEmail && credit.decision === null)
  for (const credit of held) expect((await decideCredit(ownerClient, credit.id, true))?.changed).toBe(true)
  return held.length
}

/** The person's own page, opened again from their link (a new load: the panel reads the database). */
async function ownPage(page: Page, link: string) {
  await page.goto('/')
  await page.goto(link)
  await expect(page.locator('#place-title')).toBeVisible()
}

const rewardSubject = (key: string, language: Language) => fill(words[language].email.rewardSubject, { reward: rungTitle(key, language) })

for (const language of ['en', 'de'] as const) {
  test(`a person brings friends in ${language === 'en' ? 'English' : 'German'}: the first rung shown, held credits earn nothing until granted, each rung earned once with its e-mail and webhook`, async ({
    page,
    browser,
  }) => {
    const { placePanel, email } = words[language]
    const referrer = referrers[language]
    if (language === 'en') await emptyTheLine()
    const { mail, link } = await joinAndConfirm(page, referrer, language)

    // The first rung, in the confirmation e-mail and on the page that e-mail's link opened.
    expect(mail.text).toContain(fill(email.firstRewardOne, { reward: rungTitle('skip-100', language) }))
    const next = page.getByTestId('next-reward')
    await expect(next).toHaveText(fill(placePanel.rewardNextOne, { reward: rungTitle('skip-100', language) }))
    await expect(page.getByRole('heading', { level: 3, name: placePanel.rewardsTitle })).toBeVisible()
    expect(await axeViolations(page)).toEqual([])

    // A friend confirms through the link: held (the referrer's own network), so nothing is earned.
    const code = await referralCodeOf(referrer.email)
    const friends = [1, 2, 3].map((n) => admittedPerson(`Friend${n}${language}`, stamp))
    await withOwnBrowser(browser, (other) => joinAndConfirm(other, friends[0]!, language, code))
    await outboxSettled()
    await ownPage(page, link)
    await expect(next).toHaveText(fill(placePanel.rewardNextOne, { reward: rungTitle('skip-100', language) }))
    expect(await emailsTo(referrer.email, rewardSubject('skip-100', language))).toEqual([])

    // Granted: the first rung is earned, its e-mail goes once, in their language.
    expect(await grantHeldCredits(referrer.email)).toBe(1)
    const reward = await emailTo(referrer.email, { subject: rewardSubject('skip-100', language) })
    expect(reward.text).toContain(referrer.name)
    expect(reward.text).toContain(email.rewardBody)
    expect(reward.html).toContain(`lang="${language}"`)
    await ownPage(page, link)
    await expect(page.getByText(fill(placePanel.referralsText, { n: 1 }))).toBeVisible()
    await expect(next).toHaveText(fill(placePanel.rewardNextOne, { reward: rungTitle('founding-badge', language) }))
    const earned = page.locator('#place-title').locator('..').getByRole('listitem')
    await expect(earned).toHaveText([`${rungTitle('skip-100', language)} · ${placePanel.rewardEarnedLabel}`])

    // Two more friends: the badge (granted at once) and the call with the founders (held for approval).
    for (const friend of friends.slice(1)) await withOwnBrowser(browser, (other) => joinAndConfirm(other, friend, language, code))
    expect(await grantHeldCredits(referrer.email)).toBe(2)
    await emailTo(referrer.email, { subject: rewardSubject('founding-badge', language) })
    await outboxSettled()
    await ownPage(page, link)
    await expect(earned).toHaveText([
      `${rungTitle('skip-100', language)} · ${placePanel.rewardEarnedLabel}`,
      `${rungTitle('founding-badge', language)} · ${placePanel.rewardEarnedLabel}`,
      `${rungTitle('founder-call', language)} · ${placePanel.rewardHeldLabel}`,
    ])
    await expect(next).toHaveText(fill(placePanel.rewardNextOther, { n: 7, reward: rungTitle('month-free', language) }))
    await page.setViewportSize({ width: 320, height: 800 })
    expect(await reflowOffenders(page, 320)).toEqual([])
    await page.setViewportSize({ width: 1280, height: 720 })
    // Held: no e-mail until a founder approves it; each earned rung's e-mail once.
    expect(await emailsTo(referrer.email, rewardSubject('founder-call', language))).toEqual([])
    for (const key of ['skip-100', 'founding-badge']) expect(await emailsTo(referrer.email, rewardSubject(key, language))).toHaveLength(1)

    // The founders' webhook: one reward.earned per rung, signed (standardwebhooks), naming the rung and its kind.
    const events = (await webhookEvents('reward.earned')).filter((event) => event.data.email === referrer.email)
    expect(events.map((event) => [event.data.rung, event.data.kind])).toEqual([
      ['skip-100', 'places'],
      ['founding-badge', 'perk'],
      ['founder-call', 'perk'],
    ])
  })
}

test('the founder approves each held perk in the console, once: its e-mail goes in the person’s language; the export lists what each earned', async ({
  page,
}) => {
  const ownerConsole = await startOwnerConsole()
  try {
    await page.goto(ownerConsole.url.href)
    // not seed copy: the console's words
    const reached = page.getByRole('region', { name: 'People who reached each rung' }).getByRole('row').filter({ hasText: 'founder-call' })
    await expect(reached).toContainText('perk, held for your approval') // not seed copy: the console's words
    // Both referrers reached it, and wait for you.
    await expect(reached.getByRole('cell')).toContainText(['3', 'perk, held for your approval', '2', '0', '2', '0'])
    expect(await axeViolations(page)).toEqual([])
    for (const language of ['en', 'de'] as const) {
      const referrer = referrers[language]
      // not seed copy: the console's words
      await page.getByRole('button', { name: `Approve founder-call for ${referrer.email}` }).click()
      await expect(page.getByRole('status')).toContainText('Approved “founder-call”') // not seed copy: the console's words
      await expect(page.getByRole('button', { name: `Approve founder-call for ${referrer.email}` })).toHaveCount(0)
      const approved = await emailTo(referrer.email, { subject: rewardSubject('founder-call', language) })
      // The words for a perk a founder approved, in their language.
      expect(approved.text).toContain(words[language].email.rewardHeldBody)
      expect(approved.text).toContain(rungTitle('founder-call', language))
    }
    // not seed copy: the console's words
    await expect(page.getByRole('region', { name: 'Rewards for bringing friends' }).getByText('No perk is waiting for your approval.')).toBeVisible()
  } finally {
    ownerConsole.stop()
  }
  await outboxSettled()
  for (const referrer of Object.values(referrers))
    expect(await emailsTo(referrer.email, rewardSubject('founder-call', 'en'))).toHaveLength(referrer === referrers.en ? 1 : 0)

  // The founders' export: the rewards column, each rung with its status.
  let csv = ''
  await writeWaitlistCsv(ownerClient, { write: async (chunk) => void (csv += chunk), end: async () => {} })
  const [header, ...lines] = csv.trim().split(/\r?\n/)
  const column = header!.split(',').indexOf('rewards')
  expect(column).toBeGreaterThan(0)
  for (const referrer of Object.values(referrers)) {
    const line = lines.find((candidate) => candidate.includes(referrer.email))!
    expect(line.split(',')[column]).toBe('skip-100:granted;founding-badge:granted;founder-call:granted')
  }
})
