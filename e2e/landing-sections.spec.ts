import { expect, test } from './fixtures'
import { startTrialLinks, tryDemoButtons } from './landing-controls'
import { copy } from './seed-copy'

// The sections that show the product instead of listing it: the hero's picture of a demo
// conversation and how it works. Their words are read from the seed.

const hero = copy.section(copy.landing, 'heroSection')
const conversation = copy.deref(hero.visual!)
const steps = copy.section(copy.landing, 'stepsSection')

test.describe('the hero’s product picture', () => {
  test('shows the conversation and its Slack insight beside the headline, in the first screen', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/')
    const picture = page.getByRole('figure', { name: hero.visualCaption })
    await expect(picture).toBeInViewport()
    await expect(picture).toContainText(conversation.opening)
    await expect(picture).toContainText(conversation.insight.channel)
    await expect(picture).toContainText(conversation.insight.summary)
    // Side by side: the picture starts level with the text, to the right of the headline.
    const headline = (await page.getByRole('heading', { level: 1 }).boundingBox())!
    const box = (await picture.boundingBox())!
    expect(box.x).toBeGreaterThan(headline.x + headline.width - 1)
  })

  test('however tall the picture, the hero’s buttons stay in a laptop’s first screen', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 720 })
    await page.goto('/')
    await expect(startTrialLinks.hero(page)).toBeInViewport({ ratio: 1 })
    await expect(tryDemoButtons.hero(page)).toBeInViewport({ ratio: 1 })
  })

  test('is in the server’s HTML: a picture needs no JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false })
    const page = await context.newPage()
    await page.goto('/')
    await expect(page.getByRole('figure', { name: hero.visualCaption })).toContainText(conversation.insight.summary)
    await context.close()
  })

  test('on a phone it follows the words, which stay the first thing on screen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1 })).toBeInViewport()
    const headline = (await page.getByRole('heading', { level: 1 }).boundingBox())!
    const box = (await page.getByRole('figure', { name: hero.visualCaption }).boundingBox())!
    expect(box.y).toBeGreaterThan(headline.y + headline.height)
    expect(box.x + box.width).toBeLessThanOrEqual(390)
  })
})

test('how it works: numbered steps, reachable at /#how-it-works', async ({ page }) => {
  await page.goto('/#how-it-works')
  const section = page.getByRole('region', { name: steps.title })
  await expect(section).toBeInViewport()
  const items = section.getByRole('listitem')
  await expect(items).toHaveCount(steps.steps.length)
  for (const [index, step] of steps.steps.entries()) {
    await expect(items.nth(index)).toContainText(`${index + 1}`)
    await expect(items.nth(index).getByRole('heading', { level: 3 })).toHaveText(step.title)
    await expect(items.nth(index)).toContainText(step.text)
  }
})

test.describe('pictures', () => {
  const features = copy.section(copy.landing, 'cardGridSection', 'features')

  test('feature rows: each picture beside its text, sides alternating, loaded lazily', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/')
    const rows = page.locator('#features li[data-feature-row]')
    await expect(rows).toHaveCount(features.items.length)
    const sides: boolean[] = []
    for (const [index, item] of features.items.entries()) {
      const row = rows.nth(index)
      const picture = row.getByRole('img', { name: item.image!.alt })
      await expect(picture).toHaveAttribute('loading', 'lazy')
      await row.scrollIntoViewIfNeeded()
      await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
      const text = (await row.getByRole('heading', { level: 3, name: item.title }).boundingBox())!
      sides.push((await picture.boundingBox())!.x > text.x)
    }
    expect(sides).toEqual(features.items.map((_, index) => index % 2 === 0))
  })

  test('on a phone the picture follows its text, full width', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/#features')
    // The second row, whose text sits right of its picture on wide screens. Measured in one frame:
    // the page may still be scrolling smoothly to the anchor.
    const row = page.locator('#features li[data-feature-row]').nth(1)
    const { text, picture } = await row.evaluate((li) => ({
      text: li.querySelector('h3')!.getBoundingClientRect().toJSON() as DOMRect,
      picture: li.querySelector('img')!.getBoundingClientRect().toJSON() as DOMRect,
    }))
    expect(picture.y).toBeGreaterThan(text.y)
    expect(picture.width).toBeGreaterThan(300)
  })

  test('logos are pictures named by their company; the sample testimonial has its portrait; /about shows the team picture, marked sample', async ({ page }) => {
    const logos = copy.section(copy.landing, 'logoStripSection')
    await page.goto('/')
    const strip = page.getByRole('region', { name: copy.withTokens(logos.title) })
    for (const logo of logos.items) await expect(strip.getByRole('img', { name: logo.name, exact: true })).toBeVisible()
    const figure = page.locator('section[aria-labelledby="cta-title"] figure')
    await expect(figure.locator('img')).toHaveAttribute('alt', '')
    await figure.scrollIntoViewIfNeeded()
    await expect.poll(() => figure.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)

    const team = copy.section(copy.about, 'statementSection').image!
    await page.goto('/about')
    const picture = page.getByRole('img', { name: team.alt })
    await expect(picture).toHaveAttribute('loading', 'lazy')
    await expect(page.locator('figure', { has: picture })).toContainText(copy.settings.labels.sample)
  })
})
