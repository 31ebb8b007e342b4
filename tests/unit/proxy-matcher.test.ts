import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server'
import { describe, expect, it } from 'vitest'
import { config } from '@/proxy'

// Which requests Next runs proxy.ts for: every address that might be a page, a redirect or a
// Markdown twin, and not the site's root files, which only cost the server a run of the proxy
// (about 0.8 ms a request under load: docs/bench.md, "The server's own cost").
const runs = (path: string) => unstable_doesMiddlewareMatch({ config, url: `https://heardly.example${path}` })

describe("the proxy's matcher", () => {
  it('skips the root files that are never a page', () => {
    for (const path of ['/robots.txt', '/sitemap.xml', '/icon.svg']) expect(runs(path), path).toBe(false)
  })

  it("skips Next's files and the code's own routes, as before", () => {
    for (const path of ['/_next/static/chunks/main.js', '/api/revalidate', '/ingest/e/']) expect(runs(path), path).toBe(false)
  })

  it('runs for every address that might be a page, a redirect or a twin, however close to a root file', () => {
    for (const path of [
      '/',
      '/about',
      '/de',
      '/blog/feed.xml',
      '/about.md',
      '/llms.txt',
      '/robots.txt.md',
      '/robots.txt/x',
      '/robots-txt',
      '/old-sitemap.xml',
      '/de/robots.txt',
      '/icon.svg.md',
      '/this-page-does-not-exist',
    ]) {
      expect(runs(path), path).toBe(true)
    }
  })
})
