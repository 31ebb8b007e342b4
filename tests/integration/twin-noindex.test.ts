import { symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { seedCopy } from '../helpers/seed-copy'

// A page hidden from search engines (Studio → SEO → "Hide from search engines", `seo.noindex`) has
// a twin that says so (`X-Robots-Tag: noindex`, as the page's own robots meta tag does) and is not
// offered to assistants in llms.txt: a builder page, a post, and the fixed about page, over a copy
// of the seed with those three marked. The pages left unmarked keep their twins as they were.

vi.mock('next/cache', () => ({ unstable_cache: (fn: () => Promise<unknown>) => fn }))

const HIDDEN = ['page-careers', 'post-why-ai-interviews', 'aboutPage']

let twinResponse: typeof import('@/components/markdown/twin-route').twinResponse
let llmsResponse: typeof import('@/components/markdown/llms-route').llmsResponse

beforeAll(async () => {
  const { dir, seedPath, seed } = await seedCopy('twin-noindex')
  // The seed's images sit beside it.
  await symlink(path.resolve('sanity/seed/images'), path.join(dir, 'images'))
  const hidden = seed
    .trimEnd()
    .split('\n')
    .map((line) => {
      const doc = JSON.parse(line) as { _id: string; seo?: Record<string, unknown> }
      return JSON.stringify(HIDDEN.includes(doc._id) ? { ...doc, seo: { ...doc.seo, noindex: true } } : doc)
    })
  await writeFile(seedPath, `${hidden.join('\n')}\n`)
  vi.stubEnv('CONTENT_SEED_PATH', seedPath)
  ;({ twinResponse } = await import('@/components/markdown/twin-route'))
  ;({ llmsResponse } = await import('@/components/markdown/llms-route'))
})
afterAll(() => vi.unstubAllEnvs())

describe('the twin of a page hidden from search engines', () => {
  it.each([
    ['/careers', true],
    ['/blog/why-ai-interviews', true],
    ['/about', true],
    ['/privacy', false],
    ['/blog/good-interview-questions', false],
    ['/', false],
  ])('%s answers its Markdown, noindex: %s', async (path, hidden) => {
    const response = await twinResponse('en', path)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
    expect(response.headers.get('x-robots-tag')).toBe(hidden ? 'noindex' : null)
  })

  it('is not offered in llms.txt; the others are', async () => {
    const text = await (await llmsResponse('en')).text()
    for (const path of ['/careers.md', '/blog/why-ai-interviews.md', '/about.md']) expect(text).not.toContain(path)
    for (const path of ['/privacy.md', '/blog/good-interview-questions.md', '/index.md']) expect(text).toContain(path)
    // The German pages were not marked: their about page is still offered there.
    expect(await (await llmsResponse('de')).text()).toContain('/de/about.md')
  })
})
