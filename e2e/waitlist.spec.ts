import type { Page } from '@playwright/test'
import { LOCAL_ANON_KEY } from '../tools/supabase-local/keys'
import { expect, test } from './fixtures'
import { copy } from './seed-copy'
import { nameRequired, waitlistForm } from './waitlist-form'
import { owner, rowsFor, supabaseUrl } from './waitlist-rows'

const { form, confirmation, messages } = copy.waitlist

const uniqueEmail = (tag: string) => `${tag}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.org`

// Fills as autofill does, and the tests then submit at once: no pause, as a fast visitor would.
async function fill(page: Page, values: { name: string; company?: string; email: string }) {
  const fields = waitlistForm(page)
  await fields.name.fill(values.name)
  await fields.company.fill(values.company ?? '')
  await fields.email.fill(values.email)
}

const submit = (page: Page) => waitlistForm(page).submit
const confirmed = (page: Page) => waitlistForm(page).confirmed
// Next keeps its own empty role=alert route announcer on every page.
const errorToast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text })

test.describe('waitlist sign-up', () => {
  test('a sign-up is stored, confirmed, and focus moves to the confirmation', async ({ page }) => {
    const email = uniqueEmail('ada')
    await page.goto('/waitlist')
    await fill(page, { name: '  Ada Lovelace ', company: 'Analytical Engines', email: `  ${email} ` })
    await submit(page).click()
    const heading = page.getByRole('heading', { level: 1, name: confirmation.title })
    await expect(heading).toBeVisible()
    await expect(heading).toBeFocused()
    await expect(page.getByRole('status')).toContainText(messages.success)
    await expect(page.getByRole('heading', { name: confirmation.nextStepsTitle })).toBeVisible()
    await expect(page.getByRole('form')).toHaveCount(0)
    expect(await rowsFor(email)).toEqual([{ name: 'Ada Lovelace', email, project: 'Analytical Engines' }])
    await page.getByRole('link', { name: confirmation.backLabel }).click()
    await expect(page).toHaveURL('/')
  })

  test('typed before the script arrived: hydration keeps every value and tick, and the sign-up stores them', async ({ page }) => {
    // A slow phone, or autofill on arrival: the person fills the form while the page's script is
    // still loading. React used to reset the (then controlled) fields to empty when it hydrated.
    let release!: () => void
    const scriptHeld = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/_next\/static\/chunks\/.+\.js$/, async (route) => {
      await scriptHeld
      await route.continue()
    })
    const email = uniqueEmail('early')
    await page.goto('/waitlist', { waitUntil: 'domcontentloaded' })
    await fill(page, { name: 'Early Bird', company: 'Dawn Ltd', email })
    await waitlistForm(page).updates.check()
    release()
    await submit(page).click()
    await expect(confirmed(page)).toBeVisible()
    expect(await rowsFor(email)).toEqual([{ name: 'Early Bird', email, project: 'Dawn Ltd' }])
    const { data } = await owner.from('waitlist').select('updates').eq('email', email)
    expect(data).toEqual([{ updates: true }])
  })

  test('a browser sending Global Privacy Control keeps what was typed before the script arrived too', async ({ browser }) => {
    // Its consent banner once read the browser's signal while hydrating, drew another banner than
    // the server's, and React redrew the whole page, form included.
    const context = await browser.newContext({ extraHTTPHeaders: { 'sec-gpc': '1' } })
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }))
    try {
      const page = await context.newPage()
      let release!: () => void
      const scriptHeld = new Promise<void>((resolve) => (release = resolve))
      await page.route(/\/_next\/static\/chunks\/.+\.js$/, async (route) => {
        await scriptHeld
        await route.continue()
      })
      await page.goto('/waitlist', { waitUntil: 'domcontentloaded' })
      await waitlistForm(page).name.fill('Private Person')
      release()
      await expect(submit(page)).toBeEnabled()
      await expect(waitlistForm(page).name).toHaveValue('Private Person')
    } finally {
      await context.close()
    }
  })

  test('without a company the row holds an empty project', async ({ page }) => {
    const email = uniqueEmail('solo')
    await page.goto('/waitlist')
    await fill(page, { name: 'Solo Builder', email })
    await submit(page).click()
    await expect(confirmed(page)).toBeVisible()
    expect(await rowsFor(email)).toEqual([{ name: 'Solo Builder', email, project: '' }])
  })

  test('the same e-mail in another case is a duplicate: its toast, and the form stays', async ({ page }) => {
    const email = uniqueEmail('grace')
    await page.goto('/waitlist')
    await fill(page, { name: 'Grace Hopper', email })
    await submit(page).click()
    await expect(confirmed(page)).toBeVisible()

    await page.goto('/waitlist')
    await fill(page, { name: 'Grace H.', email: email.toUpperCase() })
    await submit(page).click()
    await expect(page.getByRole('status')).toContainText(messages.duplicate)
    await expect(waitlistForm(page).form).toBeVisible()
    await expect(waitlistForm(page).email).toHaveValue(email.toUpperCase())
    expect(await rowsFor(email)).toHaveLength(1)
  })

  test('a backend error (500) shows the error toast, keeps every value, and a retry succeeds', async ({ page }) => {
    const email = uniqueEmail('retry')
    await page.route('**/rest/v1/waitlist*', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'XX000', message: 'internal error', details: null, hint: null }),
      }),
    )
    await page.goto('/waitlist')
    await fill(page, { name: 'Katherine Johnson', company: 'NASA', email })
    await submit(page).click()
    await expect(errorToast(page, messages.backendError)).toBeVisible()
    await expect(waitlistForm(page).name).toHaveValue('Katherine Johnson')
    await expect(waitlistForm(page).company).toHaveValue('NASA')
    await expect(waitlistForm(page).email).toHaveValue(email)
    await expect(submit(page)).toBeEnabled()
    expect(await rowsFor(email)).toEqual([])

    await page.unroute('**/rest/v1/waitlist*')
    await submit(page).click()
    await expect(confirmed(page)).toBeVisible()
    expect(await rowsFor(email)).toHaveLength(1)
  })

  test('a network failure is never reported as saved', async ({ page }) => {
    const email = uniqueEmail('offline')
    await page.route('**/rest/v1/waitlist*', (route) => route.abort('internetdisconnected'))
    await page.goto('/waitlist')
    await fill(page, { name: 'Offline Visitor', email })
    await submit(page).click()
    await expect(errorToast(page, messages.failure)).toBeVisible()
    await expect(confirmed(page)).toHaveCount(0)
    await expect(waitlistForm(page).email).toHaveValue(email)
    expect(await rowsFor(email)).toEqual([])
  })

  test('while sending the button reads its sending label and is disabled; a double click makes one row', async ({ page }) => {
    const email = uniqueEmail('double')
    let inserts = 0
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/rest/v1/waitlist*', async (route) => {
      if (route.request().method() === 'POST') inserts++
      await held
      await route.continue()
    })
    await page.goto('/waitlist')
    await fill(page, { name: 'Double Clicker', email })
    await submit(page).dblclick()
    const sending = page.getByRole('button', { name: form.submittingLabel })
    await expect(sending).toBeDisabled()
    release()
    await expect(confirmed(page)).toBeVisible()
    expect(inserts).toBe(1)
    expect(await rowsFor(email)).toHaveLength(1)
  })

  test('invalid input gets a clear message at the field and nothing is sent', async ({ page }) => {
    let requests = 0
    await page.route('**/rest/v1/**', (route) => {
      requests++
      return route.continue()
    })
    await page.goto('/waitlist')
    await fill(page, { name: '   ', email: 'not-an-email@nowhere' })
    await submit(page).click()
    const name = waitlistForm(page).name
    await expect(name).toHaveAttribute('aria-invalid', 'true')
    await expect(name).toBeFocused()
    await expect(page.getByText(nameRequired)).toBeVisible()
    await expect(page.getByText(form.errorInvalidEmail)).toBeVisible()
    await expect(waitlistForm(page).email).toHaveValue('not-an-email@nowhere')
    expect(requests).toBe(0)
  })

  test('the public key cannot read the list, from the browser', async ({ page }) => {
    await page.goto('/waitlist')
    const answer = await page.evaluate(
      async ({ url, key }) => {
        const response = await fetch(`${url}/rest/v1/waitlist?select=*`, { headers: { apikey: key, authorization: `Bearer ${key}` } })
        return { status: response.status, body: await response.json() }
      },
      { url: supabaseUrl, key: LOCAL_ANON_KEY },
    )
    expect(answer.status).toBe(401)
    expect(answer.body.code).toBe('42501')
  })

  test('the database client is not part of the page until the visitor submits', async ({ page }) => {
    const scripts: string[] = []
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') scripts.push(await response.text())
    })
    await page.goto('/waitlist')
    await page.waitForLoadState('networkidle')
    expect(scripts.some((body) => body.includes('supabase'))).toBe(false)
    await fill(page, { name: 'Lazy Loader', email: uniqueEmail('lazy') })
    await submit(page).click()
    await expect(confirmed(page)).toBeVisible()
    expect(scripts.some((body) => body.includes('supabase'))).toBe(true)
  })
})
