import { E2E } from '../tools/test/e2e-env'
import { expect, test } from './fixtures'
import { publishLocally as publish, unpublishLocally as unpublish } from './local-publish'
import { confirmLinkIn, emailTo } from './inbox'
import { copy } from './seed-copy'

// The site in German (#30), from the seed's translations: /de/… in German with lang="de", each
// page naming its other language (hreflang, both ways, in the head and in the sitemap), the footer's
// switcher keeping the visitor on the same page, and a German 404. English stays where it was.

const site = `http://localhost:${E2E.sitePort}`
const de = {
  landing: copy.doc('landingPage-de', 'landingPage'),
  about: copy.doc('aboutPage-de', 'aboutPage'),
  waitlist: copy.doc('waitlistPage-de', 'waitlistPage'),
  notFound: copy.doc('notFoundPage-de', 'notFoundPage'),
  settings: copy.doc('siteSettings-de', 'siteSettings'),
  privacy: copy.doc('page-privacy-de', 'page'),
  post: copy.doc('post-why-ai-interviews-de', 'post'),
}
const languages = copy.doc('siteLanguages', 'siteLanguages').languages
const languageName = (code: string) => languages.find((language) => language.code === code)!.title
const privacy = copy.doc('page-privacy', 'page')
const post = copy.doc('post-why-ai-interviews', 'post')
const hero = copy.section(de.landing, 'heroSection')

/** Each hreflang alternate in the head, as language → path. */
async function alternates(page: import('@playwright/test').Page): Promise<Record<string, string>> {
  const links = await page
    .locator('head link[rel="alternate"][hreflang]')
    .evaluateAll((elements) => elements.map((link) => [link.getAttribute('hreflang')!, new URL(link.getAttribute('href')!).pathname]))
  return Object.fromEntries(links)
}

test('/de, /de/about and /de/waitlist are in German, with lang="de", in the server’s HTML', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  const pages: [string, string][] = [
    ['/de', `${hero.title} ${hero.titleHighlight}`],
    ['/de/about', copy.section(de.about, 'pageHeaderSection').title],
    ['/de/waitlist', de.waitlist.title],
  ]
  for (const [path, heading] of pages) {
    const answer = await page.goto(path)
    expect(answer?.status(), path).toBe(200)
    await expect(page.locator('html')).toHaveAttribute('lang', 'de')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
    // The chrome speaks German too, and its links stay in German.
    await expect(page.getByRole('link', { name: de.settings.navigation.startTrialLabel }).first()).toHaveAttribute('href', '/de/waitlist')
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${site}${path}`)
  }
  await expect(page.getByRole('button', { name: de.waitlist.form.submitLabel })).toBeVisible()
  await context.close()
})

test('English stays at its unprefixed addresses with lang="en"; /en/… is not an address of its own', async ({ page, request }) => {
  await page.goto('/about')
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  const answer = await request.get('/en/about', { maxRedirects: 0 })
  expect(answer.status()).toBe(308)
  expect(answer.headers().location).toMatch(/\/about$/)
  // With the query it was asked with: a campaign's tags are not lost on the way.
  expect((await request.get('/en/about?utm_campaign=spring', { maxRedirects: 0 })).headers().location).toMatch(/\/about\?utm_campaign=spring$/)
})

test('each page names its other language and English as x-default, both ways', async ({ page }) => {
  const pairs: [string, string][] = [
    ['/', '/de'],
    ['/about', '/de/about'],
    ['/waitlist', '/de/waitlist'],
    [`/${privacy.slug.current}`, `/de/${de.privacy.slug.current}`],
    [`/blog/${post.slug.current}`, `/de/blog/${de.post.slug.current}`],
  ]
  for (const [english, german] of pairs) {
    for (const path of [english, german]) {
      await page.goto(path)
      expect(await alternates(page), path).toEqual({ en: english, de: german, 'x-default': english })
    }
  }
})

test('the sitemap lists both languages, each entry naming the other', async ({ request }) => {
  const xml = await (await request.get('/sitemap.xml')).text()
  const entry = (path: string) => xml.split('<url>').find((block) => block.includes(`<loc>${site}${path}</loc>`))
  for (const [english, german] of [
    ['/about', '/de/about'],
    [`/${privacy.slug.current}`, `/de/${de.privacy.slug.current}`],
  ]) {
    for (const path of [english, german]) {
      const block = entry(path!)
      expect(block, path).toBeDefined()
      expect(block).toContain(`hreflang="de" href="${site}${german}"`)
      expect(block).toContain(`hreflang="en" href="${site}${english}"`)
      expect(block).toContain(`hreflang="x-default" href="${site}${english}"`)
    }
  }
})

test('the footer’s switcher keeps the visitor on the same page in the other language', async ({ page }) => {
  await page.goto(`/${privacy.slug.current}`)
  const footer = page.getByRole('contentinfo')
  await footer
    .getByRole('navigation', { name: copy.settings.labels.language })
    .getByRole('link', { name: languageName('de') })
    .click()
  await expect(page).toHaveURL(`/de/${de.privacy.slug.current}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(de.privacy.title)
  await page
    .getByRole('contentinfo')
    .getByRole('navigation', { name: de.settings.labels.language })
    .getByRole('link', { name: languageName('en') })
    .click()
  await expect(page).toHaveURL(`/${privacy.slug.current}`)
})

test('without JavaScript the switcher keeps the visitor on the same page too: the server answers it', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  await page.goto(`/blog/${post.slug.current}`)
  await page
    .getByRole('contentinfo')
    .getByRole('link', { name: languageName('de') })
    .click()
  await expect(page).toHaveURL(`/de/blog/${de.post.slug.current}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(de.post.title)
  await context.close()
})

test('the switcher is no script: the page loads none for it, and its answer is never cached for another visitor', async ({ page, request }) => {
  const html = await (await request.get(`/${privacy.slug.current}`)).text()
  // A client component is named in the flight data React hydrates from (its module, chunks and export).
  expect(html).not.toContain('LanguageSwitcher')
  await page.goto(`/${privacy.slug.current}`)
  const link = page.getByRole('contentinfo').getByRole('link', { name: languageName('de') })
  const href = (await link.getAttribute('href'))!
  // Whatever page a visitor is on, the link is the same: the Referer names the page.
  const answer = await request.get(href, { headers: { referer: `${site}/${privacy.slug.current}` }, maxRedirects: 0 })
  expect(answer.status()).toBe(303)
  expect(answer.headers()['location']).toBe(`/de/${de.privacy.slug.current}`)
  expect(answer.headers()['cache-control']).toBe('private, no-store')
  // A Referer from elsewhere, or none, leads only to the home page of the language.
  expect((await request.get(href, { headers: { referer: `https://evil.example/${privacy.slug.current}` }, maxRedirects: 0 })).headers()['location']).toBe('/de')
  expect((await request.get('/api/language/xx', { maxRedirects: 0 })).status()).toBe(404)
})

test('an address under /de that does not exist is the German 404, drawn by the server', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false })
  const page = await context.newPage()
  for (const path of ['/de/gibt-es-nicht', '/de/blog/gibt-es-nicht', `/de/${privacy.slug.current}`]) {
    const answer = await page.goto(path)
    expect(answer?.status(), path).toBe(404)
    await expect(page.locator('html')).toHaveAttribute('lang', 'de')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(de.notFound.title)
    await expect(page.getByRole('link', { name: de.notFound.homeLabel })).toHaveAttribute('href', '/de')
  }
  // A language the site does not speak is English's 404.
  expect((await page.goto('/fr/about'))?.status()).toBe(404)
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await context.close()
})

test('a page published in English only is not listed in German, and names no German alternate', async ({ page, request }) => {
  const only = {
    _id: 'page-e2e-english-only',
    _type: 'page',
    language: 'en',
    title: 'English only', // not seed copy
    slug: { _type: 'slug', current: 'english-only' },
    sections: [{ _key: 'header', _type: 'pageHeaderSection', title: 'English only' }], // not seed copy
  }
  await publish([only])
  try {
    await page.goto('/english-only')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('English only') // not seed copy
    expect(await alternates(page)).toEqual({})
    expect((await request.get('/de/english-only')).status()).toBe(404)
    // The switcher's nearest translation: the German home page.
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: languageName('de') })
      .click()
    await expect(page).toHaveURL('/de')
    const xml = await (await request.get('/sitemap.xml')).text()
    expect(xml).toContain(`<loc>${site}/english-only</loc>`)
    expect(xml).not.toContain('/de/english-only')
  } finally {
    await unpublish([only._id])
  }
})

test('a sign-up from /de/waitlist gets its confirmation e-mail in German, which opens the German confirm page', async ({ page }) => {
  const email = `german.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.org`
  const { form, confirmation, confirmPage } = de.waitlist
  await page.goto('/de/waitlist')
  await page.getByLabel(form.nameLabel).fill('Grete Hopper') // not seed copy
  await page.getByLabel(form.emailLabel).fill(email)
  await page.getByRole('button', { name: form.submitLabel }).click()
  await expect(page.getByRole('heading', { name: confirmation.title })).toBeVisible()

  const mail = await emailTo(email)
  expect(mail.subject).toBe(de.waitlist.email.subject)
  expect(mail.subject).not.toBe(copy.waitlist.email.subject)
  expect(mail.html).toMatch(/<html[^>]* lang="de"/)
  const link = confirmLinkIn(mail)
  expect(new URL(link).pathname).toBe('/de/waitlist/confirm')
  // Its way out is the German leave page too (one click in the mail program, or the page that asks).
  expect(mail.text).toContain('/de/waitlist/unsubscribe#token=')

  await page.goto(link)
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page.getByRole('heading', { level: 1, name: confirmPage.readyTitle })).toBeVisible()
  await page.getByRole('button', { name: confirmPage.confirmLabel }).click()
  await expect(page.getByRole('heading', { level: 1, name: confirmPage.confirmedTitle })).toBeVisible()
})
