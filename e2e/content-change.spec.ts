import { readFile, writeFile } from 'node:fs/promises'
import { E2E } from '../scripts/lib/e2e-env'
import { expect, test } from './fixtures'

// Proof that pages are made from content: change a value in the server's copy of the seed
// dataset and watch the built page pick it up on its next revalidation.
test('a changed value in the dataset reaches the built page', async ({ page, request }) => {
  const original = await readFile(E2E.seedPath, 'utf8')
  const fresh = `Pricing that changes with the content ${Date.now()}`
  try {
    await writeFile(E2E.seedPath, original.replace('"title": "Simple, transparent pricing"', `"title": "${fresh}"`))
    expect(await readFile(E2E.seedPath, 'utf8')).toContain(fresh)
    // Stale-while-revalidate: a request after the period triggers the rebuild, a later one sees it.
    await expect
      .poll(async () => (await (await request.get('/')).text()).includes(fresh), { timeout: 20_000, intervals: [1000] })
      .toBe(true)
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 2, name: fresh })).toBeVisible()
  } finally {
    await writeFile(E2E.seedPath, original)
  }
  await expect
    .poll(async () => (await (await request.get('/')).text()).includes('Simple, transparent pricing'), { timeout: 20_000, intervals: [1000] })
    .toBe(true)
})
