import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

// The site search over the seed, read through the site's own content layer (its getters, its GROQ
// run by groq-js, its sample rule), with Next's data cache standing aside: what a visitor of each
// language finds, and what a publish or an unpublish changes.
vi.mock('next/cache', () => ({ unstable_cache: (fn: () => Promise<unknown>) => fn }))

afterEach(() => {
  vi.unstubAllEnvs()
  vi.resetModules()
})

const SEED = 'sanity/seed/production.ndjson'

/** The search as the page runs it, over a dataset at `seedPath`, with the sample rule `samples`. */
async function searcher(seedPath = SEED, samples: 'show' | 'hide' = 'show') {
  vi.resetModules()
  vi.stubEnv('CONTENT_SEED_PATH', seedPath)
  vi.stubEnv('SAMPLE_CONTENT', samples)
  const [{ searchDocuments, searchSite }, { normalizeQuery }] = await Promise.all([
    import('@/components/search/documents'),
    import('@/components/search/search-index'),
  ])
  return {
    documents: searchDocuments,
    paths: async (language: string, query: string) => (await searchSite(language, normalizeQuery(query))).map((hit) => hit.path),
    hits: async (language: string, query: string) => searchSite(language, normalizeQuery(query)),
  }
}

/** A copy of the seed in a directory of its own, changed by `edit`, with the seed's images beside it. */
async function seedCopy(edit: (lines: string[]) => string[]) {
  const dir = await mkdtemp(path.join(tmpdir(), 'search-seed-'))
  const file = path.join(dir, 'production.ndjson')
  await writeFile(file, edit((await readFile(SEED, 'utf8')).trim().split('\n')).join('\n') + '\n')
  await symlink(path.resolve('sanity/seed/images'), path.join(dir, 'images'))
  return file
}

describe('the site search over the seed', () => {
  it('finds a post by a word of its body, in each language, and only in that language', async () => {
    const { paths } = await searcher()
    expect(await paths('en', 'logging')).toContain('/blog/why-ai-interviews')
    expect(await paths('de', 'kurzlebig')).toEqual(['/de/blog/warum-ki-interviews'])
    expect(await paths('en', 'kurzlebig')).toEqual([])
    expect(await paths('de', 'logging')).not.toContain('/blog/why-ai-interviews')
  })

  it('finds a word of a code block, a legal page by its name, and the changelog entry with a typo', async () => {
    const { paths } = await searcher()
    expect(await paths('en', 'timingSafeEqual')).toEqual(['/blog/slack-threads-and-webhooks'])
    expect((await paths('en', 'gdpr'))[0]).toBe('/gdpr')
    expect(await paths('en', 'webhok')).toContain('/blog/slack-threads-and-webhooks')
    expect(await paths('de', 'webhok')).toContain('/de/blog/slack-threads-und-webhooks')
  })

  it("reads every fixed page's and section's words: the landing page's pricing, the about page, the waitlist", async () => {
    const { documents } = await searcher()
    const english = await documents('en')
    const at = (path: string) => english.find((document) => document.path === path)
    for (const path of ['/', '/about', '/waitlist', '/blog', '/changelog', '/gdpr', '/privacy', '/careers']) expect(at(path), path).toBeDefined()
    expect(at('/')!.text).toMatch(/Starter/)
    expect((await documents('de')).every((document) => document.path.startsWith('/de'))).toBe(true)
    // Plain text, as the rule says, and no Sanity ids or addresses taken for words.
    for (const document of english) {
      expect(document.text, document.path).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u202A-\u202E\u2066-\u2069]/)
      expect(document.text, document.path).not.toMatch(/image@file|_key|pricingTier-/)
    }
  })

  it('highlights the matched words in an excerpt of the text', async () => {
    const { hits } = await searcher()
    const [hit] = await hits('de', 'kurzlebig')
    expect(hit!.excerpt.filter((segment) => segment.mark).map((segment) => segment.text)).toEqual(['kurzlebig'])
  })

  it('follows the sample rule: a deployed site (SAMPLE_CONTENT=hide) finds no sample post', async () => {
    const { paths } = await searcher(SEED, 'hide')
    expect(await paths('en', 'logging')).toEqual([])
    expect(await paths('de', 'kurzlebig')).toEqual([])
    expect((await paths('en', 'gdpr'))[0]).toBe('/gdpr')
  })

  it('finds a page once it is published, and no longer once it is unpublished', async () => {
    const page = {
      _id: 'page-search-probe',
      _type: 'page',
      language: 'en',
      title: 'Quokka handbook',
      slug: { _type: 'slug', current: 'quokka-handbook' },
      sections: [
        {
          _key: 's1',
          _type: 'richTextSection',
          body: [
            {
              _key: 'b1',
              _type: 'block',
              style: 'normal',
              markDefs: [],
              children: [{ _key: 'c1', _type: 'span', marks: [], text: 'Marsupials smile for the camera.' }],
            },
          ],
        },
      ],
    }
    const published = await seedCopy((lines) => [...lines, JSON.stringify(page)])
    expect(await (await searcher(published)).paths('en', 'marsupials')).toEqual(['/quokka-handbook'])
    expect(await (await searcher(published)).paths('en', 'quoka')).toEqual(['/quokka-handbook'])
    const unpublished = await seedCopy((lines) => lines.filter((line) => !line.includes('"page-search-probe"')))
    expect(await (await searcher(unpublished)).paths('en', 'marsupials')).toEqual([])
  })
})
