/**
 * /studio without a Sanity project (this build has none): the setup page, drawn with the site's own
 * stylesheet only. Sanity's stylesheet once came with it and its reset undid the page's spacing,
 * pushing the step numbers off screen (issue #56).
 */
import { axeViolations } from './a11y'
import { expect, test } from './fixtures'
import { mainHeadings, reflowOffenders } from './reflow'

// A marker only Sanity's stylesheet (@sanity-labs/ui-poc) carries: its Inter fonts' host.
const SANITY_STYLESHEET = 'design-system-static.sanity.io'

test('the Studio setup page carries no Sanity stylesheet, logs no error and reflows at 320 px', async ({ page, consoleErrors }) => {
  await page.setViewportSize({ width: 320, height: 640 })
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text())
  })
  await page.goto('/studio')
  // not seed copy: the setup page's own words (components/studio/studio-setup.tsx), shown when there is no content to edit
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect a Sanity project to edit content')

  const stylesheets = await page.evaluate(() => [...document.styleSheets].map((sheet) => [...sheet.cssRules].map((rule) => rule.cssText).join('\n')))
  expect(stylesheets.filter((text) => text.includes(SANITY_STYLESHEET))).toEqual([])
  // The steps keep their numbers on screen: the list is indented as the page asks.
  const steps = page.getByRole('list')
  expect(await steps.evaluate((list) => getComputedStyle(list).paddingLeft)).not.toBe('0px')
  expect(await steps.evaluate((list) => list.getBoundingClientRect().left)).toBeGreaterThan(16)

  expect(await mainHeadings(page)).toHaveLength(1)
  expect(await reflowOffenders(page, 320)).toEqual([])
  expect(await axeViolations(page)).toEqual([])
  expect(consoleErrors).toEqual([])
  expect(violations).toEqual([])
})
