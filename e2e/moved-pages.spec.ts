import type { APIRequestContext } from '@playwright/test'
import { expect, test } from './fixtures'
import { currentDocument, publishLocally as publish, unpublishLocally as unpublish } from './local-publish'

// A page whose address changes, published with `npm run content:publish` (the Studio's rules and
// Publish, the same signed webhook): its old address answers 308 to the new one from the next
// request on, with no redirect written by anyone (lib/content/paths.ts previousSlugsAfter,
// sanity/content/addresses.ts).

type Doc = { _id: string; _type: string; slug: { _type: 'slug'; current: string } } & Record<string, unknown>
const stamp = () => Date.now().toString(36)

test.describe.configure({ mode: 'serial' })

/** A page of this test's own, a copy of `from` (so no other spec's page moves), at `slug`. */
async function pageAt(from: string, slug: string, id = `page-${slug}`): Promise<Doc> {
  const source = await currentDocument<Doc>(from)
  return { ...source, _id: id, slug: { _type: 'slug', current: slug } }
}

const moveTo = (doc: Doc, slug: string): Doc => ({ ...doc, slug: { _type: 'slug', current: slug } })

/** How an address answers, unfollowed: its status and `Location`. */
async function answerAt(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path, { maxRedirects: 0 })
  return `${response.status()} ${response.headers().location ?? ''}`
}

test('a moved page answers its old addresses with one 308 each, straight to where it is now; a new page may take an old address', async ({ page, request }) => {
  test.slow()
  const [first, second, third] = ['first', 'second', 'third'].map((step) => `moving-${step}-${stamp()}`) as [string, string, string]
  const location = (path: string) => answerAt(request, path)
  let doc = await pageAt('page-careers', first)
  const ids = [doc._id]
  try {
    await publish([doc])
    await expect.poll(() => location(`/${first}`)).toBe('200 ')

    doc = moveTo(doc, second)
    expect(await publish([doc])).toContain(`${doc._id} keeps its old addresses: /${first}.`)
    // The next request already: no poll.
    expect(await location(`/${first}`)).toBe(`308 /${second}`)
    expect(await location(`/${second}`)).toBe('200 ')
    // A campaign's tags travel with the visitor, and the page's Markdown twin follows the page.
    expect(await location(`/${first}?utm_campaign=spring&utm_source=newsletter`)).toBe(`308 /${second}?utm_campaign=spring&utm_source=newsletter`)
    expect(await location(`/${first}.md?ref=abc`)).toBe(`308 /${second}.md?ref=abc`)

    // Published from a file that does not mention the old addresses: they are kept, and the move too.
    expect(await publish([moveTo(doc, third)])).toContain(`${doc._id} keeps its old addresses: /${first}, /${second}.`)
    for (const old of [first, second]) expect(await location(`/${old}`)).toBe(`308 /${third}`)
    for (const old of [first, second]) expect(await location(`/${old}.md`)).toBe(`308 /${third}.md`)

    // A visitor with an old link lands on the page, at its address now.
    await page.goto(`/${first}`)
    await expect(page).toHaveURL(new RegExp(`/${third}$`))
    await expect(page.locator('h1')).toHaveCount(1)

    // A new page published at an old address takes it over.
    const newcomer = await pageAt('page-privacy', first, `page-newcomer-${stamp()}`)
    ids.push(newcomer._id)
    await publish([newcomer])
    expect(await location(`/${first}`)).toBe('200 ')
    expect(await location(`/${second}`)).toBe(`308 /${third}`)

    // An editor removes the old addresses: they answer 404 from the next request on.
    await publish([{ ...(await currentDocument<Doc>(doc._id)), previousSlugs: [] }])
    expect(await location(`/${second}`)).toMatch(/^404/)
  } finally {
    await unpublish(ids)
  }
  // Unpublished, the page and its old addresses are gone: 404, not a redirect to a missing page.
  for (const path of [first, second, third]) await expect.poll(() => location(`/${path}`)).toMatch(/^404/)
})

test('a moved page in German redirects under /de, to its German address', async ({ request }) => {
  const [before, after] = [`vorher-${stamp()}`, `nachher-${stamp()}`]
  const doc = await pageAt('page-careers-de', before)
  try {
    await publish([doc])
    expect(await publish([moveTo(doc, after)])).toContain(`keeps its old addresses: /de/${before}.`)
    const response = await request.get(`/de/${before}`, { maxRedirects: 0 })
    expect(response.status()).toBe(308)
    expect(response.headers().location).toBe(`/de/${after}`)
    // Its twin too, in German.
    expect((await request.get(`/de/${before}.md`, { maxRedirects: 0 })).headers().location).toBe(`/de/${after}.md`)
    // English never had that address.
    expect((await request.get(`/${before}`, { maxRedirects: 0 })).status()).toBe(404)
  } finally {
    await unpublish([doc._id])
  }
})

test('a redirect to a moved page’s old address goes to where the page is now in one hop, and one that would come back to itself is none', async ({
  request,
}) => {
  const [before, after, promo, loop] = ['before', 'after', 'promo', 'loop'].map((step) => `${step}-${stamp()}`) as [string, string, string, string]
  const location = (path: string) => answerAt(request, path)
  const redirect = (source: string, path: string) => ({
    _id: `redirect-${source}`,
    _type: 'redirect',
    source: `/${source}`,
    destination: { kind: 'path', path },
    permanent: true,
  })
  const doc = await pageAt('page-careers', before)
  try {
    await publish([doc])
    await publish([moveTo(doc, after)])
    // The Studio lets both through: it knows no page's old addresses, and /en/… is English's address said with its prefix.
    await publish([redirect(promo, `/${before}?utm_source=promo`), redirect(loop, `/en/${loop}`)])
    // The destination's own tag wins over the visitor's; the visitor's others are kept.
    expect(await location(`/${promo}?utm_source=newsletter&utm_campaign=spring`)).toBe(`308 /${after}?utm_source=promo&utm_campaign=spring`)
    // /loop-… → /en/loop-… → /loop-… would never end: the address answers as if it had no redirect.
    expect(await location(`/${loop}`)).toMatch(/^404/)
  } finally {
    await unpublish([doc._id, `redirect-${promo}`, `redirect-${loop}`])
  }
})

test('an old address a hand-written document spells as a path elsewhere is refused before it is published', async () => {
  const doc = { ...(await pageAt('page-careers', `hostile-${stamp()}`)), previousSlugs: ['//evil.example'] }
  await expect(publish([doc])).rejects.toThrow(/Not published: the Studio would refuse this content[\s\S]*evil\.example/)
})
