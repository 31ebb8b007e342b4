import { expect, test } from './fixtures'
import { copy } from './seed-copy'

// This build has a deployment's settings (no embedded defaults, so SAMPLE_CONTENT defaults to
// hide): nothing the seed flags as sample may reach a visitor.

type Flagged = { isSample?: boolean; name?: string; author?: string; alt?: string }

/** Every visible name of a flagged item in the seed: logo names, testimonial authors, photo alt texts. */
function sampleNames(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(sampleNames)
  if (!value || typeof value !== 'object') return []
  const item = value as Flagged
  const own = item.isSample === true ? [item.name, item.author, item.alt].filter((text): text is string => Boolean(text)) : []
  return [...own, ...Object.values(value).flatMap(sampleNames)]
}

const sampleLabel = copy.settings.labels.sample
/** A document as stored, walked whole (the strict view would refuse the fields an item lacks). */
const stored = (id: string) => copy.documents.find((doc) => doc._id === id)!

for (const [path, id] of [
  ['/', 'landingPage'],
  ['/about', 'aboutPage'],
] as const) {
  test(`${path} shows no sample item and no sample marker`, async ({ page }) => {
    const names = sampleNames(stored(id))
    // The seed does flag some: otherwise this test proves nothing.
    expect(names.length).toBeGreaterThan(0)
    const response = await page.goto(path)
    expect(response?.status()).toBe(200)
    const html = (await response!.text()).toLowerCase()
    for (const name of names) expect(html, `"${name}" reached ${path}`).not.toContain(name.toLowerCase())
    await expect(page.getByText(sampleLabel, { exact: true })).toHaveCount(0)
  })
}

test('a logo strip whose logos are all samples hides itself', async ({ page }) => {
  expect(copy.section(copy.landing, 'logoStripSection').items.every((item) => 'isSample' in item && item.isSample)).toBe(true)
  await page.goto('/')
  await expect(page.locator('#logos-title')).toHaveCount(0)
})

test('a deployment build has no seed image route', async ({ request }) => {
  expect((await request.get('/seed-images/logo-northwind.svg')).status()).toBe(404)
})
