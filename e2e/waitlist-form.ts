import { expect, type Page } from '@playwright/test'
import { copy, withValues } from './seed-copy'

const { form, confirmation, confirmPage, messages } = copy.waitlist

/** The message under the name field when it is left empty. */
export const nameRequired = withValues(form.errorRequired, { field: form.nameInSentence })

/** The waitlist form and its confirmation, found by the labels the seed gives them. */
export function waitlistForm(page: Page) {
  return {
    form: page.getByRole('form', { name: form.title }),
    name: page.getByLabel(form.nameLabel),
    company: page.getByLabel(form.companyLabel),
    email: page.getByLabel(form.emailLabel),
    /** Product updates by e-mail: unticked unless the person ticks it. */
    updates: page.getByRole('checkbox', { name: form.updatesLabel }),
    submit: page.getByRole('button', { name: form.submitLabel }),
    /** The confirmation's heading, shown once the sign-up is stored. */
    confirmed: page.getByRole('heading', { name: confirmation.title }),
  }
}

/** Signs up on /waitlist (or `path`, e.g. a referral link) as a person would, and waits for "You're on the list!". */
export async function joinWaitlist(page: Page, person: { name: string; email: string; company?: string; updates?: boolean }, path = '/waitlist') {
  const form = waitlistForm(page)
  await page.goto(path)
  await form.name.fill(person.name)
  if (person.company !== undefined) await form.company.fill(person.company)
  await form.email.fill(person.email)
  await expect(form.updates).not.toBeChecked()
  if (person.updates) await form.updates.check()
  await form.submit.click()
  // A refusal fails at once with what the page said, not at the test's timeout with nothing.
  const refusal = page
    .getByRole('alert')
    .filter({ hasText: /\S/ })
    .or(page.locator('[aria-invalid="true"]'))
    .or(page.getByRole('status').filter({ hasText: messages.duplicate }))
  await form.confirmed.or(refusal).first().waitFor()
  if (!(await form.confirmed.isVisible())) throw new Error(`the sign-up was refused: ${await form.form.innerText()}`)
}

/** Opens an e-mailed link and presses the page's button, as a person does: only the press confirms. */
export async function confirmByPress(page: Page, link: string) {
  const heading = (name: string) => page.getByRole('heading', { level: 1, name })
  await page.goto(link)
  await expect(heading(confirmPage.readyTitle)).toBeVisible()
  await page.getByRole('button', { name: confirmPage.confirmLabel }).click()
  await expect(heading(confirmPage.confirmedTitle)).toBeVisible()
}
