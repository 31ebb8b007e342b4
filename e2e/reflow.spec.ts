import type { Page } from '@playwright/test'
import { expect, NOT_FOUND_ROUTE, test } from './fixtures'
import { tryDemoButtons } from './landing-controls'
import { mainHeadings, reflowOffenders, setTextSize, widenText } from './reflow'
import { inReusedTab } from './reused-tab'
import { copy } from './seed-copy'
import { nameRequired, waitlistForm } from './waitlist-form'

// Every page and every state a visitor can bring it to reflows (WCAG 2.2 1.4.10): at 320, 360 and
// 390 CSS px on a phone (mobile emulation), at 320 px with WCAG 1.4.12's wider text spacing (what
// fits there fits a wider font), and at 1280 px with the browser's text at 200 % (1.4.4). Each
// state also has exactly one h1. The consent banner shows throughout (no choice made yet).

const confirmPage = copy.waitlist.confirmPage
const placePanel = copy.waitlist.placePanel
const widget = copy.settings.demoWidget
const nav = copy.settings.navigation

// Every language's pages and posts: German words run longer than English ones.
type Addressed = { language?: string; slug: { current: string } }
const inItsLanguage = (doc: Addressed, path: string) => (doc.language && doc.language !== 'en' ? `/${doc.language}${path === '/' ? '' : path}` : path)
const seedDocuments = (type: string) => copy.documents.filter((doc) => doc._type === type && !doc._id.startsWith('drafts.')) as unknown as Addressed[]
const seedPages = seedDocuments('page').map((doc) => inItsLanguage(doc, `/${doc.slug.current}`))
const seedPosts = seedDocuments('post').map((doc) => inItsLanguage(doc, `/blog/${doc.slug.current}`))
const fixedPages = ['/', '/about', '/waitlist', '/waitlist/unsubscribe', '/waitlist/leaderboard', '/blog', '/changelog']
// The search with results and with none (a query no word matches).
const searches = ['/search', '/search?q=slack', '/search?q=xylophonequartet', '/de/search?q=slack', '/de/search?q=xylophonequartet']
const ROUTES = [
  ...fixedPages,
  ...fixedPages.map((path) => `/de${path === '/' ? '' : path}`),
  NOT_FOUND_ROUTE,
  '/de/no-such-page',
  ...seedPages,
  '/blog/category/product',
  '/de/blog/category/produkt',
  ...seedPosts,
  ...searches,
]

const otherLanguages = copy
  .doc('siteLanguages', 'siteLanguages')
  .languages.map((language) => language.code)
  .filter((code) => code !== 'en')
const languageOf = (route: string) => otherLanguages.find((code) => route === `/${code}` || route.startsWith(`/${code}/`))
/** The consent banner's title in the page's language: German pages carry German settings. */
const consentTitle = (language = 'en') => (language === 'en' ? copy.settings : copy.doc(`siteSettings-${language}`, 'siteSettings')).consent.title

const PHONE = {
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2.625,
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36',
}

const passes = [
  { name: '320 px phone', width: 320, device: PHONE },
  { name: '360 px phone', width: 360, device: PHONE },
  { name: '390 px phone', width: 390, device: PHONE },
  { name: '320 px phone, wide text spacing', width: 320, device: PHONE, wideText: true },
  { name: '1280 px, text at 200 %', width: 1280, device: {}, textSize: 200 },
] as const

/** The RPC the confirm page calls, answered as the database would for each state. */
function answerRpc(page: Page, answers: Record<string, unknown>) {
  return page.route('**/rest/v1/rpc/*', (route) => {
    const fn = new URL(route.request().url()).pathname.split('/').pop()!
    if (!(fn in answers)) return route.fallback()
    const answer = answers[fn]
    if (answer === 'hold') return // never answered: the page stays in its checking state
    if (answer === 'fail') return route.fulfill({ status: 503, body: '{}' })
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer) })
  })
}

const ME = { status: 'confirmed', place: 1234, confirmed_total: 98765, referrals: 12, referral_code: 'AbCdEfGhIjKlMnOpQrStUvWx', places_per_referral: 5 }
// A token of the shape the site sends (43 base64url characters): any other opens nothing, unasked.
const TOKEN = '#token=reflow-check-token-000000000000000000000000'

/** States a visitor can bring a page to: each opens the page and gets it there. */
const states: { name: string; language?: string; reach: (page: Page) => Promise<void> }[] = [
  ...ROUTES.map((route) => ({ name: route, language: languageOf(route), reach: async (page: Page) => void (await page.goto(route)) })),
  {
    name: 'the phone menu, open',
    reach: async (page) => {
      await page.goto('/')
      const toggle = page.getByRole('banner').getByRole('button', { name: nav.menuLabel })
      // Wide screens have no menu button unless large text switches them to the phone layout.
      if (await toggle.isVisible()) {
        await toggle.click()
        await expect(page.getByRole('banner').getByRole('button', { name: copy.settings.labels.closeMenu })).toBeVisible()
      }
    },
  },
  {
    name: 'the demo widget, played to its insight',
    reach: async (page) => {
      await page.goto('/')
      await tryDemoButtons.hero(page).click()
      const dialog = page.getByRole('dialog', { name: widget.title })
      const conversation = copy.deref(copy.landing.demo)
      for (const step of conversation.steps) {
        await dialog.getByRole('group', { name: widget.chooseReplyLabel }).getByRole('button', { name: step.replies[0]!.text }).click()
      }
      await expect(dialog.getByRole('article', { name: widget.insightTitle })).toBeVisible()
    },
  },
  {
    name: 'the waitlist form with its errors',
    reach: async (page) => {
      await page.goto('/waitlist')
      await waitlistForm(page).submit.click()
      await expect(page.getByText(nameRequired)).toBeVisible()
    },
  },
  {
    name: 'the waitlist confirmation',
    reach: async (page) => {
      // Answered here: a layout check need not spend the network's sign-up allowance.
      await page.route('**/rest/v1/waitlist*', (route) => route.fulfill({ status: 201, body: '' }))
      const form = waitlistForm(page)
      await page.goto('/waitlist')
      await form.name.fill('Maximiliane Wolkenkratzer-Schönberg')
      await form.email.fill('maximiliane.wolkenkratzer@example.org')
      await form.submit.click()
      await expect(form.confirmed).toBeVisible()
    },
  },
  ...(
    [
      ['checking', { waitlist_me: 'hold' }, confirmPage.checkingTitle],
      ['asking for the press that confirms', { waitlist_me: { status: 'pending' } }, confirmPage.readyTitle],
      ['already confirmed, with the place in line', { waitlist_me: ME }, confirmPage.alreadyTitle],
      ['expired', { waitlist_me: { status: 'expired' } }, confirmPage.expiredTitle],
      ['invited, with the way in', { waitlist_me: { status: 'invited', invitation_expires_at: '2026-12-08T10:00:00Z' } }, confirmPage.invitedTitle],
      ['joined', { waitlist_me: { status: 'joined' } }, confirmPage.joinedTitle],
      ['invalid', { waitlist_me: null }, confirmPage.invalidTitle],
      ['unreachable', { waitlist_me: 'fail' }, confirmPage.unreachableTitle],
    ] as const
  ).map(([name, answers, title]) => ({
    name: `the confirm page: ${name}`,
    reach: async (page: Page) => {
      await answerRpc(page, answers)
      await page.goto(`/waitlist/confirm${TOKEN}`)
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
      if (answers.waitlist_me === ME) await expect(page.getByRole('heading', { level: 2, name: placePanel.title })).toBeVisible()
    },
  })),
  {
    name: 'the confirm page: confirmed by the press, with the place in line',
    reach: async (page) => {
      let confirmed = false
      await page.route('**/rest/v1/rpc/*', (route) => {
        const fn = new URL(route.request().url()).pathname.split('/').pop()
        if (fn === 'waitlist_confirm') confirmed = true
        const body = fn === 'waitlist_confirm' ? 'confirmed' : confirmed ? ME : { status: 'pending' }
        return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) })
      })
      await page.goto(`/waitlist/confirm${TOKEN}`)
      await page.getByRole('button', { name: confirmPage.confirmLabel }).click()
      await expect(page.getByRole('heading', { level: 1, name: confirmPage.confirmedTitle })).toBeVisible()
      await expect(page.getByRole('heading', { level: 2, name: placePanel.title })).toBeVisible()
    },
  },
  {
    name: 'the leave page: done',
    reach: async (page) => {
      const leave = copy.waitlist.unsubscribePage
      await page.route('**/api/unsubscribe?*', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"ok":true}' }))
      await page.goto(`/waitlist/unsubscribe${TOKEN}`)
      await page.getByRole('button', { name: leave.buttonLabel }).click()
      await expect(page.getByRole('heading', { level: 1, name: leave.doneTitle })).toBeVisible()
    },
  },
  {
    name: 'the confirm page: asking before "Delete me"',
    reach: async (page) => {
      await answerRpc(page, { waitlist_me: ME })
      await page.goto(`/waitlist/confirm${TOKEN}`)
      await page.getByRole('button', { name: placePanel.deleteLabel }).click()
      await expect(page.getByText(placePanel.deleteConfirmText)).toBeVisible()
    },
  },
  {
    name: 'the confirm page: deleted',
    reach: async (page) => {
      await answerRpc(page, { waitlist_me: ME, waitlist_delete_me: true })
      await page.goto(`/waitlist/confirm${TOKEN}`)
      await page.getByRole('button', { name: placePanel.deleteLabel }).click()
      await page.getByRole('button', { name: placePanel.deleteConfirmLabel }).click()
      await expect(page.getByRole('heading', { level: 1, name: placePanel.deletedTitle })).toBeVisible()
    },
  },
]

test.use({ consent: null })

for (const pass of passes) {
  test.describe(pass.name, () => {
    test.use({ ...pass.device, viewport: { width: pass.width, height: pass.width > 1000 ? 800 : 740 } })

    for (const state of states) {
      test(`${state.name} reflows and has one h1`, async ({ browser }) => {
        const prepare = async (page: Page) => {
          if ('wideText' in pass) await widenText(page)
          if ('textSize' in pass) await setTextSize(page, pass.textSize)
        }
        await inReusedTab(browser, `reflow: ${pass.name}`, prepare, async (page) => {
          await state.reach(page)
          await expect(page.getByRole('region', { name: consentTitle(state.language) })).toBeVisible()
          // The pass's own settings still hold in the reused tab.
          if ('wideText' in pass) await expect(page.locator('style[data-wide-text]')).toHaveCount(1)
          if ('textSize' in pass) expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe(`${(16 * pass.textSize) / 100}px`)
          expect(await reflowOffenders(page, pass.width)).toEqual([])
          expect(await mainHeadings(page)).toHaveLength(1)
        })
      })
    }
  })
}

test.describe('a browser without JavaScript', () => {
  test.use({ javaScriptEnabled: false, ...PHONE, viewport: { width: 320, height: 740 } })
  test('the confirm page’s note reflows at 320 px', async ({ page }) => {
    await page.goto(`/waitlist/confirm${TOKEN}`)
    await expect(page.locator('[data-no-script-note]')).toBeVisible()
    expect(await reflowOffenders(page, 320)).toEqual([])
  })
})

test('the browser draws in DejaVu, a fresh machine’s only fonts, whatever this machine has installed', async ({ page }) => {
  await page.goto('/')
  const session = await page.context().newCDPSession(page)
  await session.send('DOM.enable')
  await session.send('CSS.enable')
  const { root } = await session.send('DOM.getDocument')
  const { nodeId } = await session.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'h1' })
  const { fonts } = await session.send('CSS.getPlatformFontsForNode', { nodeId })
  expect(fonts.map((font) => font.familyName)).toEqual([expect.stringMatching(/^DejaVu Sans/)])
})
