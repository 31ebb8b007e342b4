import { expect, seedDoc, test } from './fixtures'

test('about page: every section of the spec, contact details and the call to action', async ({ page }) => {
  const { contact } = seedDoc<{ contact: Record<string, string> }>('siteSettings')
  await page.goto('/about')
  for (const heading of ['Our Mission', 'Our Vision', 'Our Values', 'The Team', 'Get in Touch']) {
    await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible()
  }
  for (const value of ['User-centric', 'Speed and simplicity', 'Privacy first']) {
    await expect(page.getByRole('heading', { level: 3, name: value })).toBeVisible()
  }
  const main = page.getByRole('main')
  await expect(main.getByRole('link', { name: contact.generalEmail })).toHaveAttribute('href', `mailto:${contact.generalEmail}`)
  await expect(main.getByRole('link', { name: contact.supportEmail })).toHaveAttribute('href', `mailto:${contact.supportEmail}`)
  await expect(main.getByText(contact.location!)).toBeVisible()
  await expect(main.getByRole('link', { name: 'Twitter' })).toHaveAttribute('href', contact.twitterUrl!)
  await expect(main.getByRole('link', { name: 'LinkedIn' })).toHaveAttribute('href', contact.linkedinUrl!)
  await expect(main).toContainText('500+ teams')
  await main.getByRole('link', { name: 'Start Free Trial' }).click()
  await expect(page).toHaveURL('/waitlist')
})

test('waitlist page: back button, headline, benefits, the form and the privacy note', async ({ page }) => {
  await page.goto('/waitlist')
  await expect(page.getByRole('heading', { level: 1, name: 'Join the waitlist' })).toBeVisible()
  for (const benefit of ['Early access to new features', 'Founding member pricing locked in for life', 'Direct input on the product roadmap', 'Priority customer support']) {
    await expect(page.getByRole('listitem').filter({ hasText: benefit })).toBeVisible()
  }
  const form = page.getByRole('form', { name: 'Get Early Access' })
  await expect(form.getByLabel('Your Name *')).toHaveAttribute('required', '')
  await expect(form.getByLabel('Project or Company')).not.toHaveAttribute('required', '')
  await expect(form.getByLabel('Work Email *')).toHaveAttribute('type', 'email')
  await expect(form.getByLabel('Work Email *')).toHaveAttribute('required', '')
  // The database's limits, shown and enforced on the form.
  await expect(form.getByLabel('Your Name *')).toHaveAttribute('maxlength', '100')
  await expect(form.getByLabel('Your Name *')).toHaveAccessibleDescription('Up to 100 characters')
  await expect(form.getByLabel('Project or Company')).toHaveAttribute('maxlength', '200')
  await expect(form.getByLabel('Project or Company')).toHaveAccessibleDescription('Up to 200 characters')
  await expect(form.getByLabel('Work Email *')).toHaveAttribute('maxlength', '254')
  await expect(form.getByRole('button', { name: 'Join Waitlist' })).toBeEnabled()
  await expect(form.getByText('We respect your privacy. No spam, ever.')).toBeVisible()
  await page.getByRole('main').getByRole('link', { name: 'Back' }).click()
  await expect(page).toHaveURL('/')
})
