import { encodeSignatureHeader } from '@sanity/webhook'
import { LOCAL_REVALIDATE_SECRET } from '../tools/local/local-env'
import { expect, test, waitLikeAPerson } from './fixtures'
import { currentDocument, publishLocally as publish } from './local-publish'
import { waitlistForm } from './waitlist-form'

type Sectioned = { sections: ({ _type: string } & Record<string, unknown>)[] } & Record<string, unknown>
const landingDocument = () => currentDocument<Sectioned>('landingPage')
/** The landing page with its hero's headline changed. */
const withHeroTitle = (landing: Sectioned, title: string): Sectioned => ({
  ...landing,
  sections: landing.sections.map((section) => (section._type === 'heroSection' ? { ...section, title } : section)),
})

// The publish flow offline: change content with the local command, which signs the same
// webhook Sanity sends; the next request shows the change (pages otherwise keep for an hour).
test('a published change is on the page right after the webhook', async ({ page, request }, testInfo) => {
  const original = await landingDocument()
  const fresh = `Hear every user, live ${Date.now()}`
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).not.toContainText(fresh)
  try {
    const output = await publish([withHeroTitle(original, fresh)])
    expect(output).toMatch(/Revalidated landingPage, doc:landingPage/)
    const webhookDone = performance.now()
    await expect.poll(async () => (await (await request.get('/')).text()).includes(fresh), { timeout: 10_000, intervals: [50] }).toBe(true)
    const publishToLive = Math.round(performance.now() - webhookDone)
    testInfo.annotations.push({ type: 'publish-to-live', description: `${publishToLive} ms from webhook response to fresh page` })
    console.log(`publish-to-live: ${publishToLive} ms from the webhook's answer to the first fresh page`)
    await page.reload()
    await expect(page.getByRole('heading', { level: 1 })).toContainText(fresh)
  } finally {
    await publish([original])
  }
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect.poll(async () => (await (await request.get('/')).text()).includes(fresh)).toBe(false)
})

test("the form's error messages are content: an edited one shows under the field", async ({ page, request }) => {
  const original = await currentDocument<{ form: Record<string, string> } & Record<string, unknown>>('waitlistPage')
  try {
    // This test's own edit, published and then expected on the page: its words are the point.
    await publish([{ ...original, form: { ...original.form, errorRequired: 'We need {field}, please.', nameInSentence: 'a name' } }])
    await expect.poll(async () => (await (await request.get('/waitlist')).text()).includes('We need {field}, please.')).toBe(true)
    const form = waitlistForm(page)
    await page.goto('/waitlist')
    await form.email.fill('ada@example.org')
    await waitLikeAPerson(page)
    await form.submit.click()
    // not seed copy: the edited message this test published above.
    await expect(page.getByText('We need a name, please.')).toBeVisible()
  } finally {
    await publish([original])
  }
})

test('content the Studio would refuse is not published', async () => {
  const original = await landingDocument()
  const attempt = publish([withHeroTitle(original, 'x'.repeat(81))])
  await expect(attempt).rejects.toThrow(/the Studio would refuse this content[\s\S]*landingPage.sections\[0\].title: longer than 80/)
})

test.describe('the revalidation webhook', () => {
  const body = JSON.stringify({ _type: 'landingPage', _id: 'landingPage' })
  const post = async (request: import('@playwright/test').APIRequestContext, signature?: string) =>
    request.post('/api/revalidate', {
      data: body,
      headers: { 'content-type': 'application/json', ...(signature ? { 'sanity-webhook-signature': signature } : {}) },
    })

  test('refuses an unsigned call', async ({ request }) => {
    const response = await post(request)
    expect(response.status()).toBe(401)
  })

  test('refuses a call signed with another secret', async ({ request }) => {
    const response = await post(request, await encodeSignatureHeader(body, Date.now(), 'not-the-secret'))
    expect(response.status()).toBe(401)
  })

  test('refuses a replayed (stale) signature', async ({ request }) => {
    const response = await post(request, await encodeSignatureHeader(body, Date.now() - 10 * 60 * 1000, LOCAL_REVALIDATE_SECRET))
    expect(response.status()).toBe(401)
  })

  test('accepts a valid signature and names the tags it revalidated', async ({ request }) => {
    const response = await post(request, await encodeSignatureHeader(body, Date.now(), LOCAL_REVALIDATE_SECRET))
    expect(response.status()).toBe(200)
    expect(await response.json()).toMatchObject({ revalidated: true, tags: ['landingPage', 'doc:landingPage'] })
  })
})

test('draft preview is cleanly unavailable without a Sanity project', async ({ request }) => {
  const response = await request.get('/api/draft-mode/enable?sanity-preview-secret=anything')
  expect(response.status()).toBe(404)
  expect(await response.text()).toContain('Draft preview is not available')
})
