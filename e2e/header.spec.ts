import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { E2E } from '../tools/test/e2e-env'
import { expect, layoutShiftSoFar, test } from './fixtures'
import { copy } from './seed-copy'

// The header as a page arrives: Chrome paints what it has parsed, and a header drawn without its
// last part moved when the rest came (CI measured a layout shift of 0.009 on the main menu, on a
// loaded machine). And at tablet widths it fits: the full menu appears only where it has room.

const site = `http://localhost:${E2E.sitePort}`
const HOLD_MS = 1_500

/** Where in the header a slow network cuts the HTML: after the main menu, or inside the actions (after the search link). */
const afterMenu = (html: string) => html.indexOf('</nav>', html.indexOf('<header')) + '</nav>'.length
const CUTS = {
  'after the main menu': afterMenu,
  'inside the actions': (html: string) => html.indexOf('</a>', html.indexOf('href="/', afterMenu(html))) + '</a>'.length,
}

/**
 * Serves the site, except that a page's HTML stops at the cut, as a slow network might cut it, and
 * the rest follows HOLD_MS later.
 */
async function slowHeaderServer(cutAt: (html: string) => number): Promise<{ server: Server; origin: string }> {
  const server = createServer(async (request, response) => {
    const upstream = await fetch(`${site}${request.url}`, { headers: { accept: request.headers.accept ?? '*/*' }, redirect: 'manual' })
    const type = upstream.headers.get('content-type') ?? ''
    if (!type.startsWith('text/html')) {
      response.writeHead(upstream.status, { 'content-type': type })
      response.end(Buffer.from(await upstream.arrayBuffer()))
      return
    }
    const html = await upstream.text()
    const cut = cutAt(html)
    expect(cut).toBeGreaterThan(html.indexOf('<header'))
    response.writeHead(upstream.status, { 'content-type': type })
    // A comment long enough that the browser parses (and may paint) what came before it at once.
    response.write(html.slice(0, cut) + `<!--${' '.repeat(4096)}-->`)
    setTimeout(() => response.end(html.slice(cut)), HOLD_MS)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

for (const [where, cutAt] of Object.entries(CUTS)) {
  test(`a page whose HTML arrives in parts (cut ${where}) paints its header whole: nothing in it moves`, async ({ page }) => {
    const { server, origin } = await slowHeaderServer(cutAt)
    try {
      for (const path of ['/', '/de']) {
        const started = Date.now()
        await page.goto(`${origin}${path}`)
        // The hold was real: the page could not have loaded before the rest of its HTML came.
        expect(Date.now() - started).toBeGreaterThanOrEqual(HOLD_MS)
        await page.waitForTimeout(300)
        expect(await layoutShiftSoFar(page), path).toBe(0)
      }
    } finally {
      server.close()
    }
  })
}

const menuLabel: Record<string, string> = {
  '/': copy.settings.navigation.menuLabel,
  '/de': copy.doc('siteSettings-de', 'siteSettings').navigation.menuLabel,
}

test('at tablet and desktop widths the header fits in every language', async ({ page }) => {
  for (const width of [768, 900, 1023, 1024, 1280]) {
    await page.setViewportSize({ width, height: 800 })
    for (const path of ['/', '/de']) {
      await page.goto(path)
      const header = await page.getByRole('banner').evaluate((element) => {
        const row = element.firstElementChild as HTMLElement
        return { scroll: row.scrollWidth, client: row.clientWidth, page: document.documentElement.scrollWidth }
      })
      expect(header.scroll, `${path} at ${width} px`).toBeLessThanOrEqual(header.client)
      expect(header.page, `${path} at ${width} px`).toBeLessThanOrEqual(width)
      // The main menu is in the header or behind its menu button, never neither.
      const menuButton = page.getByRole('banner').getByRole('button', { name: menuLabel[path] })
      const desktopMenu = page.getByRole('banner').getByRole('navigation').first()
      expect((await desktopMenu.isVisible()) !== (await menuButton.isVisible()), `${path} at ${width} px`).toBe(true)
    }
  }
})
