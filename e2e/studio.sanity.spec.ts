/**
 * The Studio as an editor meets it (issue #56), in Chromium, on the build with a Sanity project
 * ("standin"), with Sanity answered by the Sanity double's Studio front end
 * (tools/sanity-standin/studio-routes.ts) and no network: it boots, lists every document type,
 * opens a page, a pricing tier, a post and an experiment, edits a page's title and address and
 * publishes (its old address kept), with no console error, uncaught exception (the fixture's
 * consoleErrors has both) or policy violation after any stage. Each stage leaves a screenshot when
 * the test fails. What the double answers, and what it does not do as Sanity does, is listed in
 * tools/sanity-standin/studio-answers.ts.
 */
import { readFileSync } from 'node:fs'
import type { Page, TestInfo } from '@playwright/test'
import { schemaTypes } from '../sanity/schemaTypes'
import { editorsExample } from '../tools/content/experiment-example'
import { installStudioDouble } from '../tools/sanity-standin/studio-routes'
import { E2E_SANITY } from '../tools/test/e2e-env'
import { expect, test } from './fixtures'

// A stage that cannot go on fails on its own, with its screenshots, before the test's time is up.
test.use({ actionTimeout: 20_000 })

const siteOrigin = `http://localhost:${E2E_SANITY.sitePort}`
const experiment = editorsExample()
// The version check is answered with the version installed: no "update available".
const sanityVersion = (JSON.parse(readFileSync('node_modules/sanity/package.json', 'utf8')) as { version: string }).version

/**
 * Runs one stage and then `check` (nothing went wrong so far); on failure, leaves a screenshot of
 * every stage so far and of the failing one, and what the page logged and the double saw (`seen`),
 * which usually says why.
 */
function stages(page: Page, testInfo: TestInfo, seen: () => object, check: () => void) {
  const shots: { name: string; png: Buffer }[] = []
  return async (name: string, run: () => Promise<void>) => {
    try {
      await test.step(name, async () => {
        await run()
        check()
      })
      shots.push({ name, png: await page.screenshot() })
    } catch (error) {
      for (const shot of shots) await testInfo.attach(`${shot.name} (passed)`, { body: shot.png, contentType: 'image/png' })
      await testInfo.attach(`${name} (failed)`, { body: await page.screenshot().catch(() => Buffer.from('')), contentType: 'image/png' })
      await testInfo.attach('seen', { body: JSON.stringify(seen(), null, 2), contentType: 'application/json' })
      throw error
    }
  }
}

/** A text field of the open document: the input inside Sanity's field of that name. */
const field = (page: Page, name: string) => page.locator(`[data-testid="field-${name}"] input`).first()

/** A form opens when its code and its document's first listen event are in: slow on a busy machine. */
const expectField = (page: Page, name: string, value: string | RegExp) => expect(field(page, name)).toHaveValue(value, { timeout: 30_000 })

async function openFromList(page: Page, list: string, title: RegExp | string) {
  await page.getByRole('link', { name: list, exact: true }).first().click()
  await page.getByRole('link', { name: title }).first().click()
}

test('an editor boots the Studio, opens each kind of document, edits and publishes', async ({ page, context, consoleErrors }, testInfo) => {
  test.setTimeout(120_000)
  const double = await installStudioDouble(context, {
    datasetPath: E2E_SANITY.datasetPath,
    extraDocuments: [experiment],
    siteOrigin,
    sanityVersion,
  })
  const violations: string[] = []
  await page.exposeFunction('reportViolation', (violation: string) => violations.push(violation))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation: (v: string) => void }).reportViolation(
        `${event.violatedDirective} ${event.blockedURI} (${event.sourceFile}:${event.lineNumber}:${event.columnNumber})`,
      ),
    )
  })
  const stage = stages(
    page,
    testInfo,
    () => ({ consoleErrors, violations, ...double }),
    () => {
      // Nothing left the machine, the double knew every request, the policy blocked nothing, nothing was logged as an error.
      expect(double.offline).toEqual([])
      expect(double.unknown).toEqual([])
      expect(violations).toEqual([])
      expect(consoleErrors).toEqual([])
    },
  )

  await stage('boots and lists every document type', async () => {
    // Tall enough for the whole list: the Studio draws only the rows in view (a virtual list).
    await page.setViewportSize({ width: 1280, height: 1400 })
    await page.goto('/studio')
    // not seed copy: the Studio's own list title (sanity/studio/structure.ts)
    await expect(page.getByRole('link', { name: 'Pages', exact: true })).toBeVisible({ timeout: 60_000 })
    const documentTypes = schemaTypes.filter((type) => type.type === 'document').map((type) => type.name)
    for (const type of documentTypes) await expect(page.locator(`a[href$="/studio/structure/${type}"]`).first(), type).toBeVisible()
  })

  await stage('opens a page', async () => {
    await openFromList(page, 'Pages', 'Careers')
    await expectField(page, 'title', 'Careers')
  })

  await stage('opens a pricing tier', async () => {
    await openFromList(page, 'Pricing tiers', /^Starter.*EN/)
    await expectField(page, 'name', 'Starter')
  })

  await stage('opens a post', async () => {
    await openFromList(page, 'Posts', /Five interview questions/)
    await expectField(page, 'title', /Five interview questions/)
  })

  await stage('opens an experiment', async () => {
    await openFromList(page, 'Experiments', experiment.title)
    await expectField(page, 'title', experiment.title)
  })

  await stage('edits a field, moves the page and publishes: the old address is kept', async () => {
    await openFromList(page, 'Pages', 'Careers')
    const title = field(page, 'title')
    await title.fill('Careers at Heardly')
    await expectField(page, 'slug', 'careers')
    await field(page, 'slug').fill('careers-at-heardly')
    // The document's Publish action (the header's "Published" chip is a button too).
    await page.getByTestId('action-publish').click()
    await expect.poll(() => double.actions.map((action) => action.actionType)).toContain('sanity.action.document.publish')
    const published = double.actions.findIndex((action) => action.actionType === 'sanity.action.document.publish')
    expect(double.actions[published]).toMatchObject({ publishedId: 'page-careers' })
    // The old slug went into the draft's Old addresses (sanity/studio/keep-old-addresses.ts) before the publish.
    const kept = double.actions.findIndex((action) => JSON.stringify(action).includes('"previousSlugs":["careers"]'))
    expect(kept, JSON.stringify(double.actions)).toBeGreaterThan(-1)
    expect(kept).toBeLessThan(published)
  })
})
