import type { Page } from '@playwright/test'
import { editorsQuestionsExample } from '../tools/content/experiment-example'
import { admittedPerson, emptyTheLine, invitationTo, startOwnerConsole, withOwnBrowser } from './admission'
import { axeViolations } from './a11y'
import { expect, test } from './fixtures'
import { confirmLinkIn, emailsTo, emailTo } from './inbox'
import { publishLocally } from './local-publish'
import { reflowOffenders } from './reflow'
import { copy } from './seed-copy'
import { confirmByPress, waitlistForm } from './waitlist-form'
import { outboxSettled, owner, statusOf, waitingLine } from './waitlist-rows'

// Questions at sign-up, end to end: the editors' guide's example published through
// `content:publish`, visitors answering in English and German, the founder seeing how the line
// answers in the console and inviting the next 2 product managers, and exactly those two getting
// their invitation e-mail. An admission spec (playwright.config.ts): it invites, and while its
// required question is published no other spec could sign up without answering it.

const example = editorsQuestionsExample()
const { form, email: words } = copy.waitlist
const german = copy.doc('waitlistPage-de', 'waitlistPage')
const [role, teamSize, firstQuestion] = example.questions as [
  (typeof example.questions)[number],
  (typeof example.questions)[number],
  (typeof example.questions)[number],
]
const label = (texts: { language: string; text: string }[], language: string) => texts.find((entry) => entry.language === language)!.text
const optionLabel = (question: typeof role, key: string, language: string) => label(question.options!.find((option) => option.key === key)!.label, language)
const stamp = Date.now().toString(36)
const [ana, ben, cem, dora] = [admittedPerson('Ana', stamp), admittedPerson('Ben', stamp), admittedPerson('Cem', stamp), admittedPerson('Dora', stamp)]

test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  test.setTimeout(120_000)
  expect(await publishLocally([example])).toMatch(/Revalidated waitlistQuestions/)
})
test.afterAll(async () => {
  test.setTimeout(120_000)
  // The seed's own: no question.
  await publishLocally([{ _id: example._id, _type: example._type, questions: [] }])
})

/** Signs up on the waitlist page in `language`, answering as given, and confirms through the e-mailed link. */
async function signUpAnswering(
  page: Page,
  who: { name: string; email: string },
  language: 'en' | 'de',
  answers: { role: string; team?: string; text?: string },
) {
  const fields = language === 'en' ? waitlistForm(page) : null
  await page.goto(language === 'en' ? '/waitlist' : '/de/waitlist')
  const named = (name: string) => page.getByRole('textbox', { name, exact: false })
  await (fields?.name ?? page.locator('#waitlist-name')).fill(who.name)
  await (fields?.email ?? page.locator('#waitlist-email')).fill(who.email)
  await page
    .getByRole('radiogroup', { name: label(role.label, language) })
    .getByRole('radio', { name: optionLabel(role, answers.role, language) })
    .check()
  if (answers.team)
    await page
      .getByRole('radiogroup', { name: label(teamSize.label, language) })
      .getByRole('radio', { name: optionLabel(teamSize, answers.team, language) })
      .check()
  if (answers.text) await named(label(firstQuestion.label, language)).fill(answers.text)
  await page.locator('form[aria-labelledby="waitlist-form-title"] button[type="submit"]').click()
  await expect(page.locator('#confirmation-title')).toBeVisible()
  const link = confirmLinkIn(await emailTo(who.email, { subject: language === 'en' ? words.subject : german.email.subject }))
  if (language === 'en') return confirmByPress(page, link)
  // The German link opens the German page: the same press, in its words.
  await page.goto(link)
  await page.getByRole('button', { name: german.confirmPage.confirmLabel }).click()
  await expect(page.getByRole('heading', { level: 1, name: german.confirmPage.confirmedTitle })).toBeVisible()
}

test('the form asks the published questions, accessibly, in each language, and refuses a required one unanswered', async ({ page }) => {
  await page.goto('/waitlist')
  const roleGroup = page.getByRole('radiogroup', { name: label(role.label, 'en') })
  await expect(roleGroup.getByRole('radio')).toHaveCount(role.options!.length)
  await expect(page.getByRole('textbox', { name: label(firstQuestion.label, 'en') })).toHaveAttribute('maxlength', '200')
  const fields = waitlistForm(page)
  await fields.name.fill('No Answer')
  await fields.email.fill(`no-answer.${stamp}@admission.example`)
  await fields.submit.click()
  // The question's own message, tied to it, and the focus on its first option.
  await expect(roleGroup).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText(form.errorChoose)).toBeVisible()
  await expect(roleGroup).toHaveAccessibleDescription(form.errorChoose)
  await expect(roleGroup.getByRole('radio').first()).toBeFocused()
  expect(await statusOf(`no-answer.${stamp}@admission.example`)).toBeNull()
  expect(await axeViolations(page)).toEqual([])
  await page.setViewportSize({ width: 320, height: 800 })
  expect(await reflowOffenders(page, 320)).toEqual([])
  await page.goto('/de/waitlist')
  await expect(page.getByRole('radiogroup', { name: label(role.label, 'de') }).getByRole('radio', { name: optionLabel(role, 'founder', 'de') })).toBeVisible()
})

test('visitors answer in English and German; the founder sees how the line answers, invites the next 2 product managers, and exactly they get their invitation', async ({
  page,
  browser,
}) => {
  // Whoever earlier specs left waiting goes first: the line is this test's people.
  await emptyTheLine()
  await signUpAnswering(page, ana, 'en', { role: 'founder', team: '1-5' })
  await withOwnBrowser(browser, (other) => signUpAnswering(other, ben, 'de', { role: 'product-manager', text: 'Warum kündigen Sie?' }))
  await withOwnBrowser(browser, (other) => signUpAnswering(other, cem, 'en', { role: 'product-manager', team: '6-20' }))
  await withOwnBrowser(browser, (other) => signUpAnswering(other, dora, 'en', { role: 'product-manager' }))
  expect(await waitingLine()).toEqual([ana.email, ben.email, cem.email, dora.email])

  // Kept with the question and the option as each person saw them.
  const { data, error } = await owner.from('waitlist').select('answers').eq('email', ben.email)
  expect(error).toBeNull()
  expect(data![0]!.answers).toEqual({
    role: { question: label(role.label, 'de'), kind: 'one', options: ['product-manager'], labels: [optionLabel(role, 'product-manager', 'de')] },
    'first-question': { question: label(firstQuestion.label, 'de'), kind: 'text', text: 'Warum kündigen Sie?' },
  })

  const ownerConsole = await startOwnerConsole()
  try {
    await page.goto(ownerConsole.url.href)
    // not seed copy: the console's words
    const answers = page.getByRole('region', { name: `Answers to ${role.key}` })
    const answerRow = (key: string) =>
      answers.getByRole('row').filter({ has: page.getByRole('rowheader', { name: optionLabel(role, key, 'en'), exact: true }) })
    await expect(answerRow('product-manager').getByRole('cell')).toHaveText(['product-manager', '3', '75.0 %'])
    await expect(answerRow('founder').getByRole('cell')).toHaveText(['founder', '1', '25.0 %'])
    await expect(answerRow('researcher').getByRole('cell')).toHaveText(['researcher', '0', '0.0 %'])
    expect(await axeViolations(page)).toEqual([])
    // not seed copy: the console's words, down to the invitation
    const invite = page.getByRole('region', { name: 'Invite the next people in line' })
    // not seed copy
    await invite.getByLabel('How many').fill('2')
    await invite.getByRole('checkbox', { name: optionLabel(role, 'product-manager', 'en') }).check()
    // not seed copy
    await invite.getByRole('button', { name: 'Preview' }).click()
    // not seed copy
    const previewed = page
      .getByRole('region', { name: 'Would be invited' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell') })
    await expect(previewed).toHaveCount(2)
    await expect(previewed.nth(0)).toContainText(ben.email)
    await expect(previewed.nth(1)).toContainText(cem.email)
    // not seed copy
    await page.getByRole('button', { name: 'Invite 2 people' }).click()
    // not seed copy
    await expect(page.getByRole('status').filter({ hasText: 'Invited 2 people.' })).toBeVisible()
  } finally {
    ownerConsole.stop()
  }

  // Each in their own language: Ben signed up on the German page.
  await emailTo(ben.email, { subject: german.email.invitationSubject })
  await invitationTo(cem.email)
  await outboxSettled()
  for (const [someone, subject, count] of [
    [ana, words.invitationSubject, 0],
    [ben, german.email.invitationSubject, 1],
    [cem, words.invitationSubject, 1],
    [dora, words.invitationSubject, 0],
  ] as const)
    expect(await emailsTo(someone.email, subject), someone.email).toHaveLength(count)
  expect(await waitingLine()).toEqual([ana.email, dora.email])
})
