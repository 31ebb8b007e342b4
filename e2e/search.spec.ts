import { axeViolations } from './a11y'
import { expect, test } from './fixtures'
import { publishLocally as publish, unpublishLocally as unpublish } from './local-publish'
import { mainHeadings, reflowOffenders } from './reflow'
import { copy } from './seed-copy'

// The site search as a visitor uses it: from the header's link, a plain form, results drawn by the
// server, with JavaScript off; what odd queries get; its accessibility and reflow at 320 px; and a
// page published with `content:publish` found without a rebuild, and gone once unpublished.

type Words = (typeof copy.settings)['search']
type Body = { _type: string; children?: { text?: string }[] }[]

/** A long word from the body of a seed post (not its title): the search must find the post by it. */
function bodyWord(id: string) {
  const post = copy.doc(id, 'post') as unknown as { title: string; slug: { current: string }; language?: string; body: Body }
  const words = post.body
    .filter((block) => block._type === 'block')
    .flatMap((block) => (block.children ?? []).map((child) => child.text ?? ''))
    .join(' ')
    .split(/[^\p{L}]+/u)
  const word = words.find((candidate) => candidate.length >= 9 && !post.title.toLowerCase().includes(candidate.toLowerCase()))!
  const prefix = post.language && post.language !== 'en' ? `/${post.language}` : ''
  return { word, path: `${prefix}/blog/${post.slug.current}` }
}

const LANGUAGES: { start: string; search: string; words: Words; post: string }[] = [
  { start: '/about', search: '/search', words: copy.settings.search, post: 'post-why-ai-interviews' },
  { start: '/de/about', search: '/de/search', words: copy.doc('siteSettings-de', 'siteSettings').search, post: 'post-why-ai-interviews-de' },
]

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  for (const { start, search, words, post } of LANGUAGES) {
    test(`${search}: the header's search finds a post by a word of its body`, async ({ page }) => {
      const { word, path } = bodyWord(post)
      await page.goto(start)
      await page.getByRole('banner').getByRole('link', { name: words.title, exact: true }).click()
      await expect(page).toHaveURL(new RegExp(`${search}$`))
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.title)
      await expect(page.getByText(words.emptyText)).toBeVisible()
      await page.getByLabel(words.label).fill(word)
      await page.getByRole('main').getByRole('button', { name: words.buttonLabel }).click()
      await expect(page).toHaveURL(new RegExp(`${search}\\?q=${encodeURIComponent(word)}$`))
      const result = page.getByRole('main').locator(`li:has(a[href="${path}"])`)
      await expect(result).toBeVisible()
      await expect(
        result
          .locator('mark')
          .filter({ hasText: new RegExp(`^${word}$`, 'i') })
          .first(),
      ).toBeVisible()
      await expect(page.getByLabel(words.label)).toHaveValue(word)
    })
  }
})

test('odd queries are answered safely: markup, 10 kB, text-direction controls, NUL, lone surrogates, only spaces', async ({ request }) => {
  const words = copy.settings.search
  const ask = async (query: string) => {
    const response = await request.get(`/search?q=${encodeURIComponent(query)}`)
    expect(response.status(), query.slice(0, 20)).toBe(200)
    return response.text()
  }
  const markup = await ask('<script>alert(1)</script><img src=x onerror=alert(2)>')
  expect(markup).not.toContain('<script>alert(1)')
  expect(markup).not.toContain('<img src=x')
  expect(markup).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')

  const long = await ask('slack '.repeat(1_700))
  expect(long).toContain('/blog/slack-threads-and-webhooks')
  expect(long).not.toContain('slack '.repeat(20))

  const bidi = await ask('\u202Eslack\u2066')
  expect(bidi).toContain('/blog/slack-threads-and-webhooks')
  expect(bidi).not.toMatch(/[\u202E\u2066]/)

  // A lone surrogate cannot be sent as UTF-8: its percent-encoding is what an address can carry.
  const response = await request.get('/search?q=sl%00ack%ED%A0%80')
  expect(response.status()).toBe(200)
  expect(await response.text()).toContain('/blog/slack-threads-and-webhooks')

  const spaces = await ask('   \u00A0 ')
  expect(spaces).toContain(words.emptyText)
  expect(spaces).not.toContain('id="search-summary"')
})

test('is kept out of search engines, reached from every page, and adds no script of its own', async ({ page }) => {
  const scripts = async (path: string) => {
    await page.goto(path)
    return page.locator('script[src]').evaluateAll((elements) => elements.map((element) => new URL((element as HTMLScriptElement).src).pathname).sort())
  }
  const about = await scripts('/about')
  const search = await scripts('/search?q=slack')
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/)
  // It loads exactly what every page loads: the form and its results are HTML, with no island.
  expect(search).toEqual(about)
})

for (const { search, words } of LANGUAGES) {
  // The states name the test, not seed copy.
  for (const [state, query] of [
    ['with results', 'slack'],
    ['with none', 'xylophonequartet'],
  ] as const) {
    test(`${search} ${state}: no axe violation, one h1, and it reflows at 320 px`, async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 640 })
      await page.goto(`${search}?q=${query}`)
      if (query === 'slack') await expect(page.getByRole('main').locator('li mark').first()).toBeVisible()
      else await expect(page.getByText(words.noResultsText)).toBeVisible()
      expect(await mainHeadings(page)).toEqual([words.title])
      expect(await reflowOffenders(page, 320)).toEqual([])
      expect(await axeViolations(page)).toEqual([])
    })
  }
}

test('a page published with content:publish is found without a rebuild, and gone once unpublished', async ({ request }) => {
  test.setTimeout(90_000)
  const id = 'page-search-probe'
  const slug = `search-probe-${Date.now().toString(36)}`
  // This test's own page: its words are fixtures, published and looked for here.
  const word = 'Marsupialia'
  await publish([
    {
      _id: id,
      _type: 'page',
      title: 'Field notes',
      slug: { _type: 'slug', current: slug },
      sections: [
        { _key: 'h', _type: 'pageHeaderSection', title: 'Field notes' },
        {
          _key: 'rt',
          _type: 'richTextSection',
          body: [
            {
              _key: 'p',
              _type: 'block',
              style: 'normal',
              markDefs: [],
              children: [{ _key: 's', _type: 'span', text: `${word} smile for the camera.`, marks: [] }],
            },
          ],
        },
      ],
    },
  ])
  const found = async () => (await (await request.get(`/search?q=${word.toLowerCase()}`)).text()).includes(`href="/${slug}"`)
  try {
    await expect.poll(found, { timeout: 15_000 }).toBe(true)
  } finally {
    await unpublish([id])
  }
  await expect.poll(found, { timeout: 15_000 }).toBe(false)
})
