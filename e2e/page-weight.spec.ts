import { expect, SITE_ROUTES, test } from './fixtures'

// Each page carries its stylesheet once: in the <style> that styles the first paint, and not
// again in the RSC flight data after it (Next's experimental.inlineCss writes it twice,
// vercel/next.js#98079; patches/next-inline-css removes the second copy).
const ROUTES = [...SITE_ROUTES, '/waitlist/confirm']

/**
 * Runs of the stylesheet spread over it, each found once in it and free of any character the
 * flight data would escape: a copy anywhere else in the page would show as a second match.
 */
function samples(css: string, count = 5, length = 60): string[] {
  const found: string[] = []
  for (let i = 1; i <= count; i++) {
    for (let start = Math.floor((css.length * i) / (count + 1)); start + length <= css.length; start += 7) {
      const run = css.slice(start, start + length)
      if (!/["'\\<>&]/.test(run) && css.indexOf(run) === css.lastIndexOf(run)) {
        found.push(run)
        break
      }
    }
  }
  return found
}

for (const path of ROUTES) {
  test(`${path} carries its stylesheet once`, async ({ request }) => {
    const html = await (await request.get(path)).text()
    const styles = [...html.matchAll(/<style[^>]*data-precedence[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]!)
    expect(styles).toHaveLength(1)
    const css = styles[0]!
    // The site's whole stylesheet, inlined (no request stands before the first paint).
    expect(css.length).toBeGreaterThan(10_000)
    const runs = samples(css)
    expect(runs).toHaveLength(5)
    for (const run of runs) expect(html.split(run).length - 1, run).toBe(1)
  })
}

// Text is set in the device's own face with as few families as possible named before the generic
// one: each is looked up for every weight and size before the browser can lay text out, which on a
// slow phone delays the first paint (app/globals.css, docs/bench.md).
test('only the system faces are looked up before sans-serif', async ({ page }) => {
  await page.goto('/')
  const stacks = await page.evaluate(() => [...new Set([...document.querySelectorAll('body, body *')].map((element) => getComputedStyle(element).fontFamily))])
  const sans = stacks.filter((stack) => /\bsans-serif\b/.test(stack))
  expect(sans.length).toBeGreaterThan(0)
  for (const stack of sans) {
    const families = stack.split(',').map((family) => family.trim().replace(/^"|"$/g, ''))
    expect(families.slice(0, families.indexOf('sans-serif') + 1)).toEqual(['-apple-system', 'BlinkMacSystemFont', 'Segoe UI', 'sans-serif'])
  }
})
