import vm from 'node:vm'
import { expect, SITE_ROUTES, test } from './fixtures'

// Turbopack ships modules in chunks of `[currentScript, id, factory, id, factory, …]`. A page
// that loads one module in two chunks pays for it twice: that is how a root not-found.tsx
// drawing the header and footer doubled their code on every page (see site-document.tsx).

/** The module ids a Turbopack chunk registers, read by running it against a stub global. */
function moduleIds(code: string): string[] {
  const sandbox: { TURBOPACK?: unknown[][]; globalThis?: unknown; self?: unknown } = {}
  sandbox.globalThis = sandbox
  sandbox.self = sandbox
  try {
    vm.runInNewContext(code, sandbox)
  } catch {
    return [] // The runtime chunk and the legacy polyfills register no modules.
  }
  const chunk = sandbox.TURBOPACK?.[0]
  if (!Array.isArray(chunk)) return []
  return chunk.filter((_, index) => index % 2 === 1).map(String)
}

for (const path of SITE_ROUTES) {
  test(`${path}: every module of the page's JavaScript is downloaded once`, async ({ page }) => {
    const scripts: Promise<{ url: string; body: string }>[] = []
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.text().then((body) => ({ url: response.url(), body })))
    })
    await page.goto(path, { waitUntil: 'load' })
    const seen = new Map<string, string>()
    const twice: string[] = []
    for (const { url, body } of await Promise.all(scripts)) {
      for (const id of moduleIds(body)) {
        if (seen.has(id)) twice.push(`${id} in ${seen.get(id)} and ${url}`)
        seen.set(id, url)
      }
    }
    expect(seen.size).toBeGreaterThan(50)
    expect(twice).toEqual([])
  })
}
