import { expect, test } from './fixtures'
import { copy, withValues } from './seed-copy'
import { waitlistForm } from './waitlist-form'

test('about page: every section of the spec, contact details and the call to action', async ({ page }) => {
  const { contact } = copy.settings
  const { about } = copy
  await page.goto('/about')
  const headings = [
    ...copy.section(about, 'textColumnsSection').columns.map((column) => column.title),
    copy.section(about, 'cardGridSection').title,
    copy.section(about, 'statementSection').title,
    copy.section(about, 'contactSection').title,
  ]
  for (const heading of headings) await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible()
  for (const value of copy.section(about, 'cardGridSection').items) await expect(page.getByRole('heading', { level: 3, name: value.title })).toBeVisible()
  const main = page.getByRole('main')
  await expect(main.getByRole('link', { name: contact.generalEmail })).toHaveAttribute('href', `mailto:${contact.generalEmail}`)
  await expect(main.getByRole('link', { name: contact.supportEmail })).toHaveAttribute('href', `mailto:${contact.supportEmail}`)
  await expect(main.getByText(contact.location)).toBeVisible()
  // not seed copy: the contact section's icon buttons are named by the code.
  await expect(main.getByRole('link', { name: 'Twitter' })).toHaveAttribute('href', contact.twitterUrl)
  // not seed copy: the contact section's icon buttons are named by the code.
  await expect(main.getByRole('link', { name: 'LinkedIn' })).toHaveAttribute('href', contact.linkedinUrl)
  // The one usage claim from Site settings, in place of its token.
  await expect(main).toContainText(copy.settings.usageClaim)
  await expect(main).not.toContainText('{{')
  await main.getByRole('link', { name: copy.section(about, 'ctaSection').primaryCtaLabel }).click()
  await expect(page).toHaveURL('/waitlist')
})

test('waitlist page: back button, headline, benefits, the form and the privacy note', async ({ page }) => {
  const { waitlist } = copy
  await page.goto('/waitlist')
  await expect(page.getByRole('heading', { level: 1, name: waitlist.title })).toBeVisible()
  for (const benefit of waitlist.benefits) await expect(page.getByRole('listitem').filter({ hasText: benefit })).toBeVisible()
  const { form, name, company, email, submit } = waitlistForm(page)
  await expect(name).toHaveAttribute('required', '')
  await expect(company).not.toHaveAttribute('required', '')
  await expect(email).toHaveAttribute('type', 'email')
  await expect(email).toHaveAttribute('required', '')
  // The database's limits, shown and enforced on the form.
  await expect(name).toHaveAttribute('maxlength', '100')
  await expect(name).toHaveAccessibleDescription(withValues(waitlist.form.lengthHint, { n: 100 }))
  await expect(company).toHaveAttribute('maxlength', '200')
  await expect(company).toHaveAccessibleDescription(withValues(waitlist.form.lengthHint, { n: 200 }))
  await expect(email).toHaveAttribute('maxlength', '254')
  await expect(submit).toBeEnabled()
  await expect(form.getByText(waitlist.form.privacyNote)).toBeVisible()
  await page.getByRole('main').getByRole('link', { name: waitlist.backLabel }).click()
  await expect(page).toHaveURL('/')
})
