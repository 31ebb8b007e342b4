import { readFile, writeFile } from 'node:fs/promises'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { addresses, addressesFrom, answerFor, forgetAddresses, readAddressSources } from '@/sanity/content/addresses'
import type { SampleMode } from '@/sanity/content/posts'
import { previousSlugsAfter, type SlugHistory } from '@/lib/content/paths'
import { unprefixedPath } from '@/lib/i18n/languages'
import { evaluateQuery, parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'
import { seedCopy } from '../helpers/seed-copy'

// A page or post whose slug changed keeps its old addresses (previousSlugs, filled by the Studio's
// Publish and content:publish through previousSlugsAfter), and the proxy answers each with a 308 to
// the current one: read by the real GROQ engine over the seed, as the site reads it.

afterEach(() => vi.unstubAllEnvs())

const seed = parseNdjson(await readFile('sanity/seed/production.ndjson', 'utf8'))
const SOME_TIME = Date.parse('2026-11-01T00:00:00Z')

/** Publishes `slugs` one after the other to the document `id`, as an editor would: each publish keeps the slug it leaves. */
function moved(dataset: SeedDocument[], id: string, slugs: string[], at = SOME_TIME): SeedDocument[] {
  return dataset.map((doc) => {
    if (doc._id !== id) return doc
    let published = doc as SeedDocument & SlugHistory
    for (const [step, slug] of slugs.entries()) {
      const next = { ...published, slug: { _type: 'slug', current: slug } }
      const previousSlugs = previousSlugsAfter(published, next)
      published = { ...next, ...(previousSlugs ? { previousSlugs } : {}), _updatedAt: new Date(at + step).toISOString() }
    }
    return published
  })
}

async function addressesOf(dataset: SeedDocument[], samples: SampleMode = 'show') {
  return addressesFrom(await readAddressSources((query) => evaluateQuery(dataset, query)), samples)
}

const to = (destination: string, permanent = true) => ({ kind: 'redirect', destination, permanent })

/** A redirect document as a marketer makes it, or as anything writing around the Studio's rules might. */
const redirectFrom = (source: string, path: string, permanent = true) => ({
  _id: `redirect-${source.replace(/\W+/g, '-')}`,
  _type: 'redirect',
  source,
  destination: { kind: 'path', path },
  permanent,
})

describe('a moved page or post', () => {
  it('answers its old address with a permanent redirect to the new one', async () => {
    const book = await addressesOf(moved(seed, 'page-careers', ['jobs']))
    expect(answerFor(book, '/careers')).toEqual(to('/jobs'))
    expect(answerFor(book, '/careers/')).toEqual(to('/jobs'))
    expect(answerFor(book, '/jobs')).toEqual({ kind: 'page', negotiated: true })
  })

  it('resolves a chain in one hop: every old address goes to the current one', async () => {
    const book = await addressesOf(moved(seed, 'page-careers', ['jobs', 'join-us']))
    expect(answerFor(book, '/careers')).toEqual(to('/join-us'))
    expect(answerFor(book, '/jobs')).toEqual(to('/join-us'))
  })

  it('moved back, it takes its address again and the one it left redirects', async () => {
    const book = await addressesOf(moved(seed, 'page-careers', ['jobs', 'careers']))
    expect(answerFor(book, '/careers').kind).toBe('page')
    expect(answerFor(book, '/jobs')).toEqual(to('/careers'))
  })

  it('redirects in its own language, and only there', async () => {
    const book = await addressesOf(moved(moved(seed, 'page-careers-de', ['jobs-bei-uns']), 'post-good-interview-questions-de', ['interviewfragen']))
    expect(answerFor(book, '/de/karriere')).toEqual(to('/de/jobs-bei-uns'))
    expect(answerFor(book, '/de/blog/gute-interviewfragen')).toEqual(to('/de/blog/interviewfragen'))
    expect(answerFor(book, '/karriere').kind).toBe('missing')
    expect(answerFor(book, '/careers').kind).toBe('page')
  })

  it('a post keeps its old address under /blog', async () => {
    const book = await addressesOf(moved(seed, 'post-why-ai-interviews', ['why-interview-with-ai']))
    expect(answerFor(book, '/blog/why-ai-interviews')).toEqual(to('/blog/why-interview-with-ai'))
  })

  it('gives way to a page published at its old address', async () => {
    const careers = seed.find((doc) => doc._id === 'page-careers')!
    const taken = [...moved(seed, 'page-careers', ['jobs']), { ...careers, _id: 'page-careers-again', slug: { _type: 'slug', current: 'careers' } }]
    const book = await addressesOf(taken)
    expect(answerFor(book, '/careers').kind).toBe('page')
  })

  it('gives way to a redirect a marketer made for the same address', async () => {
    const book = await addressesOf([...moved(seed, 'page-careers', ['jobs']), redirectFrom('/careers', '/about', false)])
    expect(answerFor(book, '/careers')).toEqual({ kind: 'redirect', destination: '/about', permanent: false })
  })

  it('when two pages left the same address, it goes where the later move took it', async () => {
    // Terms moved to /careers-old's place after careers left it, then left it in turn.
    const earlier = moved(seed, 'page-careers', ['jobs'], SOME_TIME)
    const both = moved(
      earlier.map((doc) => (doc._id === 'page-terms' ? { ...doc, slug: { _type: 'slug', current: 'careers' } } : doc)),
      'page-terms',
      ['conditions'],
      SOME_TIME + 60_000,
    )
    const book = await addressesOf(both)
    expect(answerFor(book, '/careers')).toEqual(to('/conditions'))
    // Whichever order the dataset holds them in.
    expect(answerFor(await addressesOf([...both].reverse()), '/careers')).toEqual(to('/conditions'))
  })

  it('leaves out an old slug that is no slug, whatever was written outside the Studio', async () => {
    const hostile = ['//evil.example', '../studio', 'Careers', 'café', 'a b', 'jobs\u202e', 'x/../../y', 'https://evil.example', '', 'studio', 'a'.repeat(300)]
    const dataset = seed.map((doc) => (doc._id === 'page-careers' ? { ...doc, previousSlugs: hostile, _updatedAt: new Date(SOME_TIME).toISOString() } : doc))
    const book = await addressesOf(dataset)
    const sources = [...book.redirects.keys()]
    // Only the long one is a slug: it redirects, on this site (and its twin to the page's).
    expect(sources).toEqual([`/${'a'.repeat(300)}`, `/${'a'.repeat(300)}.md`])
    expect(book.redirects.get(sources[0]!)).toEqual({ destination: '/careers', permanent: true })
    for (const path of ['//evil.example', '/Careers', '/studio', '/caf%C3%A9']) expect(answerFor(book, path).kind).not.toBe('redirect')
  })

  it('leads nowhere a page does not answer: a hidden sample post keeps no redirect', async () => {
    const book = await addressesOf(moved(seed, 'post-why-ai-interviews', ['why-interview-with-ai']), 'hide')
    expect(answerFor(book, '/blog/why-ai-interviews').kind).toBe('missing')
  })

  it('is read by the proxy’s address store with the rest, from the dataset the site reads', async () => {
    const { seedPath } = await seedCopy('moved')
    await writeFile(
      seedPath,
      moved(seed, 'page-privacy', ['privacy-policy'])
        .map((doc) => JSON.stringify(doc))
        .join('\n'),
    )
    vi.stubEnv('CONTENT_SEED_PATH', seedPath)
    forgetAddresses()
    expect(answerFor(await addresses(), '/privacy')).toEqual(to('/privacy-policy'))
    forgetAddresses()
  })
})

describe('a moved page’s Markdown twin', () => {
  it('follows the page: the twin of its old address redirects to the twin at its address now, in one hop', async () => {
    const book = await addressesOf(moved(seed, 'page-careers', ['jobs', 'join-us']))
    expect(answerFor(book, '/careers.md')).toEqual(to('/join-us.md'))
    expect(answerFor(book, '/jobs.md')).toEqual(to('/join-us.md'))
    expect(answerFor(book, '/join-us.md')).toEqual({ kind: 'markdown', path: '/join-us' })
  })

  it('in its own language, a post’s too', async () => {
    const book = await addressesOf(moved(moved(seed, 'page-careers-de', ['jobs-bei-uns']), 'post-why-ai-interviews', ['why-interview-with-ai']))
    expect(answerFor(book, '/de/karriere.md')).toEqual(to('/de/jobs-bei-uns.md'))
    expect(answerFor(book, '/karriere.md').kind).toBe('missing')
    expect(answerFor(book, '/blog/why-ai-interviews.md')).toEqual(to('/blog/why-interview-with-ai.md'))
  })

  it('gives way to a page published at the old address, and leads nowhere a page does not answer', async () => {
    const careers = seed.find((doc) => doc._id === 'page-careers')!
    const taken = await addressesOf([...moved(seed, 'page-careers', ['jobs']), { ...careers, _id: 'page-careers-again' }])
    expect(answerFor(taken, '/careers.md')).toEqual({ kind: 'markdown', path: '/careers' })
    const hidden = await addressesOf(moved(seed, 'post-why-ai-interviews', ['why-interview-with-ai']), 'hide')
    expect(answerFor(hidden, '/blog/why-ai-interviews.md').kind).toBe('missing')
  })
})

describe('whatever the dataset holds, the site serves no redirect loop', () => {
  // The Studio refuses loops and chains among redirects (redirectProblems), but a dataset written
  // around it holds them, and it knows neither a page's old addresses nor English's /en/ prefix.

  it('leaves out a cycle: its addresses answer as if they had no redirect', async () => {
    const book = await addressesOf([...seed, redirectFrom('/a', '/b'), redirectFrom('/b', '/c/'), redirectFrom('/c', '/a?x=1')])
    for (const path of ['/a', '/b', '/c']) expect(answerFor(book, path).kind, path).toBe('missing')
    // One leading into a cycle keeps its first hop, which then answers the 404.
    const into = await addressesOf([...seed, redirectFrom('/a', '/b'), redirectFrom('/b', '/c'), redirectFrom('/c', '/b')])
    expect(answerFor(into, '/a')).toEqual(to('/b'))
    expect(answerFor(into, '/b').kind).toBe('missing')
  })

  it('one back to itself, through a trailing slash or English’s prefix, is none', async () => {
    const book = await addressesOf([
      ...seed,
      redirectFrom('/self', '/self/'),
      redirectFrom('/prefixed', '/en/prefixed'),
      redirectFrom('/old-about', '/en/about'),
    ])
    expect(answerFor(book, '/self').kind).toBe('missing')
    expect(answerFor(book, '/prefixed').kind).toBe('missing')
    // Not a loop: /en/about is /about, in one hop.
    expect(answerFor(book, '/old-about')).toEqual(to('/about'))
  })

  it('resolves a chain in one hop, temporary when any hop is, with the queries and fragment a browser would carry', async () => {
    const book = await addressesOf([
      ...seed,
      redirectFrom('/spring', '/promo?utm_source=spring&utm_medium=short'),
      redirectFrom('/promo', '/landing?utm_source=promo#pricing', false),
      redirectFrom('/landing', '/?utm_campaign=launch'),
    ])
    expect(answerFor(book, '/spring')).toEqual(to('/?utm_campaign=launch&utm_source=promo&utm_medium=short#pricing', false))
    expect(answerFor(book, '/promo')).toEqual(to('/?utm_campaign=launch&utm_source=promo#pricing', false))
    expect(answerFor(book, '/landing')).toEqual(to('/?utm_campaign=launch'))
  })

  it('a redirect to a moved page’s old address goes where the page is now', async () => {
    const book = await addressesOf([
      ...moved(seed, 'page-careers', ['jobs']),
      redirectFrom('/join', '/careers?utm_source=join'),
      redirectFrom('/join-md', '/careers.md'),
    ])
    expect(answerFor(book, '/join')).toEqual(to('/jobs?utm_source=join'))
    expect(answerFor(book, '/join-md')).toEqual(to('/jobs.md'))
  })

  it('a cycle on a moved page’s old address is left out, and the old address follows the page again', async () => {
    const book = await addressesOf([...moved(seed, 'page-careers', ['jobs']), redirectFrom('/careers', '/elsewhere'), redirectFrom('/elsewhere', '/careers')])
    expect(answerFor(book, '/careers')).toEqual(to('/jobs'))
    expect(answerFor(book, '/elsewhere').kind).toBe('missing')
  })

  it('in any dataset of redirects among a few addresses: every redirect ends where no redirect answers', async () => {
    const paths = ['/a', '/b', '/c', '/d', '/careers', '/jobs', '/en/a', '/b/', '/about', 'https://elsewhere.example/a']
    const sources = ['/a', '/b', '/c', '/d', '/careers', '/jobs']
    const sample = fc.array(fc.tuple(fc.constantFrom(...sources), fc.constantFrom(...paths), fc.boolean()), { maxLength: 8 })
    const dataset = moved(seed, 'page-careers', ['jobs'])
    await fc.assert(
      fc.asyncProperty(sample, async (edges) => {
        const book = await addressesOf([...dataset, ...edges.map(([source, path, permanent]) => redirectFrom(source, path, permanent))])
        for (const [source, redirect] of book.redirects) {
          if (!redirect.destination.startsWith('/')) continue
          const { pathname } = new URL(redirect.destination, 'https://site.example')
          const next = answerFor(book, unprefixedPath(pathname) ?? pathname)
          expect(next.kind, `${source} → ${redirect.destination}`).not.toBe('redirect')
        }
      }),
      { numRuns: 80 },
    )
  })
})
