import type { Page } from '@playwright/test'
import { E2E } from '../tools/test/e2e-env'
import { captureAnalytics } from './analytics-capture'
import { expect, test } from './fixtures'
import { currentDocument, publishLocally as publish } from './local-publish'
import { tryDemoButtons } from './landing-controls'
import { copy, literally } from './seed-copy'

// The Try Demo buttons and the scripted demo widget. Every text the widget shows is read
// from the seed: the landing page's chosen conversation and Site settings → Demo widget.

const { settings } = copy
const widgetCopy = settings.demoWidget
const conversation = copy.deref(copy.landing.demo)
type Step = (typeof conversation.steps)[number]
type Reply = Step['replies'][number]

/** A string only the widget module contains (not the host): its insight card's marker. */
const WIDGET_MARKER = 'data-demo-insight'

const widget = (page: Page) => page.getByRole('dialog', { name: widgetCopy.title })
const replies = (page: Page) => widget(page).getByRole('group', { name: widgetCopy.chooseReplyLabel })
const followUpOf = (step: Step, reply: Reply) => ('followUp' in reply ? reply.followUp! : step.followUp!)

const buttons = Object.entries(tryDemoButtons)

test.describe('the Try Demo buttons open the demo widget', () => {
  for (const [location, find] of buttons) {
    test(`${location}: a press opens it, a second press closes it`, async ({ page }) => {
      await page.goto('/')
      const button = find(page)
      await expect(button).toHaveAttribute('aria-expanded', 'false')
      await button.click()
      await expect(widget(page)).toBeVisible()
      await expect(widget(page).getByRole('heading', { name: widgetCopy.title })).toBeFocused()
      await expect(button).toHaveAttribute('aria-expanded', 'true')
      await expect(button).toHaveAttribute('aria-controls', (await widget(page).getAttribute('id'))!)
      await expect(widget(page)).toHaveAccessibleDescription(`${conversation.context} ${widgetCopy.note}`)
      await expect(widget(page).getByText(widgetCopy.badge, { exact: true })).toBeVisible()
      await expect(widget(page).getByRole('log')).toContainText(conversation.opening)

      await button.click()
      await expect(widget(page)).toBeHidden()
      await expect(button).toHaveAttribute('aria-expanded', 'false')
    })
  }

  test('opening it shifts nothing on the page', async ({ page }) => {
    await page.goto('/')
    const heading = page.getByRole('heading', { level: 1 })
    const before = await heading.boundingBox()
    const height = await page.evaluate(() => document.documentElement.scrollHeight)
    await tryDemoButtons.hero(page).click()
    await expect(widget(page)).toBeVisible()
    expect(await heading.boundingBox()).toEqual(before)
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBe(height)
    await expect(widget(page)).toHaveCSS('position', 'fixed')
  })
})

test.describe('a conversation, step by step', () => {
  test('the visitor picks replies, the interviewer follows up, and the insight arrives as a Slack message', async ({ page }) => {
    await page.goto('/')
    await tryDemoButtons.hero(page).click()
    const log = widget(page).getByRole('log')
    await expect(log).toContainText(conversation.opening)
    await expect(widget(page)).toContainText(widgetCopy.note)

    // A different reply on each step, to follow each reply's own follow-up.
    const picks = conversation.steps.map((step, index) => (index + 1) % step.replies.length)
    for (const [index, step] of conversation.steps.entries()) {
      const choice = step.replies[picks[index]!]!
      await expect(replies(page).getByRole('button')).toHaveText(step.replies.map((reply) => reply.text))
      await replies(page).getByRole('button', { name: choice.text }).click()
      await expect(log.locator('[data-from="visitor"]').last()).toContainText(choice.text)
      await expect(log.locator('[data-from="interviewer"]').last()).toHaveText(new RegExp(`${literally(followUpOf(step, choice))}$`))
    }
    await expect(log.locator('li[data-from]')).toHaveCount(1 + 2 * conversation.steps.length)
    await expect(replies(page)).toHaveCount(0)

    const insight = widget(page).getByRole('article', { name: widgetCopy.insightTitle })
    await expect(insight).toBeVisible()
    const quotedIndex = conversation.steps.findIndex((step) => step.quoted)
    const quote = conversation.steps[quotedIndex]!.replies[picks[quotedIndex]!]!.text
    await expect(insight.locator('[data-demo-channel]')).toHaveText(conversation.insight.channel)
    await expect(insight).toContainText(settings.siteName)
    await expect(insight).toContainText(conversation.insight.summary)
    await expect(insight).toContainText(widgetCopy.quoteLabel)
    await expect(insight.locator('blockquote')).toHaveText(quote)
    for (const tag of conversation.insight.tags) await expect(insight.getByRole('listitem').filter({ hasText: tag })).toBeVisible()
    await expect(insight.locator('[data-sentiment]')).toHaveText(widgetCopy.sentiments[conversation.insight.sentiment])
    await expect(insight).toContainText(widgetCopy.actionLabel)
    await expect(insight).toContainText(conversation.insight.action)
    await expect(insight).toBeInViewport()

    // The demo leads on to the waitlist (focused, the next thing to do), or starts over.
    const join = widget(page).getByRole('link', { name: widgetCopy.joinWaitlistLabel })
    await expect(join).toBeFocused()
    await expect(join).toHaveAttribute('href', '/waitlist')
    const restart = widget(page).getByRole('button', { name: widgetCopy.restartLabel })
    await restart.click()
    await expect(log.locator('li[data-from]')).toHaveCount(1)
    await expect(replies(page).getByRole('button')).toHaveText(conversation.steps[0]!.replies.map((reply) => reply.text))
    await expect(replies(page).getByRole('button').first()).toBeFocused()
    await expect(insight).toHaveCount(0)
  })

  test('the interviewer "types" briefly, without animation when the visitor prefers reduced motion', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await page.goto('/')
    await tryDemoButtons.hero(page).click()
    const step = conversation.steps[0]!
    // The indicator shows for a moment only (300 ms): its dots' animation is read the moment it appears.
    const dotAnimations = page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const read = () => {
            const typing = document.querySelector('[data-demo-typing]')
            if (typing) resolve([...typing.querySelectorAll('[aria-hidden="true"] > span')].map((dot) => getComputedStyle(dot).animationName))
            return Boolean(typing)
          }
          if (!read()) new MutationObserver((_, observer) => read() && observer.disconnect()).observe(document.body, { childList: true, subtree: true })
        }),
    )
    await replies(page).getByRole('button', { name: step.replies[0]!.text }).click()
    expect(await dotAnimations).toEqual(['none', 'none', 'none'])
    const typing = widget(page).locator('[data-demo-typing]')
    await expect(typing).toHaveCount(0)
    await expect(widget(page).getByRole('log')).toContainText(followUpOf(step, step.replies[0]!))
  })
})

test.describe('closing and focus', () => {
  test('Escape closes it and returns focus to the button that opened it; the conversation is kept', async ({ page }) => {
    await page.goto('/')
    const opener = tryDemoButtons.hero(page)
    // Enter does nothing until React has attached the button's handler: on a loaded CI machine that
    // came after \`load\` (the widget never opened). The button is a JavaScript control, inert before
    // its script like every island's; this test is about focus, not about the first second.
    await expect.poll(() => opener.evaluate((button) => Object.keys(button).some((key) => key.startsWith('__reactProps$')))).toBe(true)
    await opener.focus()
    await page.keyboard.press('Enter')
    await expect(widget(page).getByRole('heading', { name: widgetCopy.title })).toBeFocused()

    // Keyboard only: choosing a reply moves focus on to the next replies.
    const [first, second] = conversation.steps
    await replies(page).getByRole('button', { name: first!.replies[0]!.text }).focus()
    await page.keyboard.press('Enter')
    await expect(replies(page).getByRole('button', { name: second!.replies[0]!.text })).toBeFocused()

    await page.keyboard.press('Escape')
    await expect(widget(page)).toBeHidden()
    await expect(opener).toBeFocused()
    await expect(opener).toHaveAttribute('aria-expanded', 'false')

    await page.keyboard.press('Enter')
    await expect(widget(page)).toBeVisible()
    await expect(widget(page).getByRole('log')).toContainText(first!.replies[0]!.text)
  })

  test('the close button closes it and returns focus to the button that opened it', async ({ page }) => {
    await page.goto('/')
    const opener = tryDemoButtons.navigation(page)
    await opener.click()
    await widget(page).getByRole('button', { name: widgetCopy.closeLabel }).click()
    await expect(widget(page)).toBeHidden()
    await expect(opener).toBeFocused()

    const cta = tryDemoButtons.cta(page)
    await cta.click()
    await expect(widget(page)).toBeVisible()
    await widget(page).getByRole('button', { name: widgetCopy.closeLabel }).press('Enter')
    await expect(widget(page)).toBeHidden()
    await expect(cta).toBeFocused()
  })
})

test.describe('beside the consent banner', () => {
  test.use({ consent: null })

  test('the widget sits bottom-right and the banner bottom-left, neither covering the other', async ({ page }) => {
    await page.goto('/')
    const banner = page.getByRole('region', { name: settings.consent.title })
    await expect(banner).toBeVisible()
    await tryDemoButtons.navigation(page).click()
    await expect(widget(page)).toBeVisible()
    await expect(banner).toBeVisible()
    const [a, b] = [(await widget(page).boundingBox())!, (await banner.boundingBox())!]
    const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    expect(overlap).toBe(false)
    expect(a.x).toBeGreaterThan(b.x)
  })
})

test.describe('analytics', () => {
  test.use({ consent: 'granted' })

  test('each press records exactly one try_demo_click with its location; opening the widget records nothing more', async ({ page }) => {
    const ph = await captureAnalytics(page)
    await page.goto('/')
    await expect.poll(() => ph.named('page_view').length).toBe(1)
    for (const [, find] of buttons) {
      await find(page).click()
      await expect(widget(page)).toBeVisible()
      // Closing with the widget's own button is not a Try Demo press.
      await widget(page).getByRole('button', { name: widgetCopy.closeLabel }).click()
      await expect(widget(page)).toBeHidden()
    }
    // A second press on an open widget is a press too: one more event, and it closes.
    const hero = buttons[1]![1](page)
    await hero.click()
    await expect(widget(page)).toBeVisible()
    await hero.click()
    await expect(widget(page)).toBeHidden()
    // Events arrive in order (PostHog batches them): one per press, with its location, and nothing else.
    const expected = [...buttons.map(([location]) => location), 'hero', 'hero']
    const locations = () => ph.named('try_demo_click').map((e) => e.properties.button_location)
    await expect.poll(locations, { timeout: 15_000 }).toEqual(expected)
    await page.waitForTimeout(1500)
    expect(locations()).toEqual(expected)
  })
})

test.describe('loaded on demand', () => {
  test('the widget is not in the first-load JavaScript of /; its chunk loads on the first press', async ({ page, request }) => {
    const html = await (await request.get('/')).text()
    const firstLoad = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!)
    expect(firstLoad.length).toBeGreaterThan(0)
    for (const src of firstLoad) expect(await (await request.get(src)).text(), src).not.toContain(WIDGET_MARKER)

    const scripts: { url: string; body: string }[] = []
    const reading: Promise<void>[] = []
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return
      reading.push(
        response.text().then(
          (body) => void scripts.push({ url: response.url(), body }),
          () => {},
        ),
      )
    })
    await page.goto('/')
    await page.waitForLoadState('networkidle')
    await Promise.all(reading)
    expect(scripts.length).toBeGreaterThan(0)
    expect(scripts.filter((s) => s.body.includes(WIDGET_MARKER)).map((s) => s.url)).toEqual([])
    const before = scripts.length

    await tryDemoButtons.hero(page).click()
    await expect(widget(page)).toBeVisible()
    await Promise.all(reading)
    const loaded = scripts.slice(before)
    expect(loaded.filter((s) => s.body.includes(WIDGET_MARKER)).length).toBeGreaterThan(0)
  })
})

// The product's own widget: Site settings → Product widget script. Published to the test
// build's dataset with the local publish command (the Studio's publish, offline), served by
// a stand-in snippet, and put back afterwards.
test.describe('the product widget, when Site settings names its script', () => {
  test.describe.configure({ mode: 'serial' })
  const scriptUrl = 'https://widget.heardly.test/v1/widget.js'
  const site = `http://localhost:${E2E.sitePort}`
  let original: Record<string, unknown>

  const landingNamesScript = async () => (await (await fetch(site)).text()).includes(scriptUrl)

  test.beforeAll(async () => {
    original = await currentDocument('siteSettings')
    await publish([{ ...original, productWidgetScriptUrl: scriptUrl }])
    await expect.poll(landingNamesScript, { timeout: 10_000 }).toBe(true)
  })

  test.afterAll(async () => {
    await publish([original])
    await expect.poll(landingNamesScript, { timeout: 10_000 }).toBe(false)
  })

  // Stands in for the app's snippet: defines window.HeardlyWidget.toggle(), opens nothing by itself.
  const SNIPPET = `(() => {
    const panel = document.createElement('div')
    panel.setAttribute('role', 'dialog')
    panel.setAttribute('aria-label', 'Heardly product widget')
    panel.hidden = true
    panel.textContent = 'The real widget'
    document.body.append(panel)
    window.HeardlyWidget = { toggle() { panel.hidden = !panel.hidden } }
  })()`

  // The test build trusts this origin (PRODUCT_WIDGET_ORIGIN), as a deployment with the product
  // widget would: the snippet loads under the real Content-Security-Policy.
  test.describe('with the script allowed', () => {
    test('Try Demo loads the snippet once and toggles it instead of the scripted demo', async ({ page }) => {
      let served = 0
      await page.route(scriptUrl, (route) => {
        served += 1
        return route.fulfill({ status: 200, contentType: 'text/javascript', body: SNIPPET })
      })
      const widgetChunks: string[] = []
      page.on('response', async (response) => {
        if (response.request().resourceType() === 'script' && (await response.text().catch(() => '')).includes(WIDGET_MARKER)) widgetChunks.push(response.url())
      })
      await page.goto('/')
      expect(served).toBe(0)
      // not seed copy: the stand-in snippet's own dialog, above.
      const product = page.getByRole('dialog', { name: 'Heardly product widget' })

      await tryDemoButtons.navigation(page).click()
      await expect(product).toBeVisible()
      await tryDemoButtons.hero(page).click()
      await expect(product).toBeHidden()
      await tryDemoButtons.cta(page).click()
      await expect(product).toBeVisible()

      expect(served).toBe(1)
      await expect(page.locator(`script[src="${scriptUrl}"]`)).toHaveCount(1)
      await expect(widget(page)).toHaveCount(0)
      expect(widgetChunks).toEqual([])
    })
  })

  test('if the snippet cannot load (missing, or refused by the security policy), the scripted demo opens instead', async ({ page }) => {
    await page.route(scriptUrl, (route) => route.fulfill({ status: 404, body: 'not found' }))
    await page.goto('/')
    await tryDemoButtons.hero(page).click()
    await expect(widget(page)).toBeVisible()
    await expect(widget(page).getByRole('log')).toContainText(conversation.opening)
  })
})
