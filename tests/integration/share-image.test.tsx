import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// The share images drawn for real (satori, fonts and emoji from node_modules, sharp) over the seed's
// site settings, with every outbound request refused: what a build or a server without internet
// does. next/og's ImageResponse fetched emoji and missing glyphs from public CDNs, so these failed
// with it (an emoji title threw; an Arabic one asked Google Fonts first).

vi.mock('next/cache', () => ({ unstable_cache: (fn: () => Promise<unknown>) => fn }))

const realFetch = globalThis.fetch
/** Called with every address the code under test asks for that is not inline data (next/og loads its WebAssembly from data: URLs). */
const network = vi.fn()
beforeEach(() => {
  network.mockClear()
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input)
    if (url.startsWith('data:')) return realFetch(input, init)
    network(url)
    throw new TypeError(`fetch failed: network refused in this test (${url})`)
  })
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
})

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** The PNG's size from its header, after checking that it is one. */
function pngSize(png: Buffer) {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR')
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

/** Warm pixels (reds, oranges): Twemoji's rocket and French flag have them; the layout's own colours (greys, blues, indigo) do not. */
async function warmPixels(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  let count = 0
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! > 150 && data[i]! - data[i + 2]! > 80) count++
  return count
}

async function draw(title: string) {
  const { drawShareImage } = await import('@/components/seo/share-image')
  const response = await drawShareImage(title, 'en')
  const png = Buffer.from(await response.arrayBuffer())
  return { response, png }
}

const NASTY_TITLES: Record<string, string> = {
  'plain Latin': 'Talk to a hundred users before lunch',
  'emoji: ZWJ family, flags, rainbow flag, keycap, skin tone, England': 'Family 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵 🏳️‍🌈 #️⃣ 👍🏽 🏴󠁧󠁢󠁥󠁮󠁧󠁿',
  'Arabic (right to left)': 'مرحبا بكم في موقعنا الجديد',
  'Chinese, Japanese and Korean': '你好世界 こんにちは 안녕하세요',
  'combining marks': 'Cafe\u0301 n\u0303 a\u0308 Tiê\u0301ng Viê\u0323t',
  Devanagari: 'नमस्ते दुनिया',
  '200 characters without a space': 'W'.repeat(200),
  'a script none of our fonts has': 'Cherokee ᏣᎳᎩ',
  'everything at once': 'Launch 🚀 مرحبا 你好 e\u0301',
}

describe('share images drawn offline', () => {
  it.each(Object.entries(NASTY_TITLES))('%s: a 1200×630 PNG, with no request to any server', async (_, title) => {
    const { response, png } = await draw(title)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 })
    expect(network).not.toHaveBeenCalled()
  })

  it('draws emoji as Twemoji pictures, not as empty boxes', async () => {
    expect(await warmPixels((await draw('Talk to a hundred users before lunch')).png)).toBe(0)
    expect(await warmPixels((await draw('Launch 🚀')).png)).toBeGreaterThan(200)
    expect(await warmPixels((await draw('Bonjour 🇫🇷')).png)).toBeGreaterThan(200)
    expect(network).not.toHaveBeenCalled()
  })

  it('keeps a 200-character word inside the image instead of running off its edge', async () => {
    // The title's colour (#0f172a) in the right margin would mean it overflowed its box.
    const { png } = await draw('W'.repeat(200))
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    let dark = 0
    for (let y = 0; y < info.height; y++) {
      for (let x = 1200 - 60; x < info.width; x++) {
        const i = (y * info.width + x) * info.channels
        if (data[i]! < 60 && data[i + 1]! < 60 && data[i + 2]! < 90) dark++
      }
    }
    expect(dark).toBe(0)
  })

  it("a published post's share image is drawn by its route from the content, offline (what `next build` prerenders)", async () => {
    // The seed with the English changelog entry retitled, read as a build reads it (CONTENT_SEED_PATH).
    const dir = await mkdtemp(path.join(tmpdir(), 'share-image-seed-'))
    const seed = (await readFile('sanity/seed/production.ndjson', 'utf8')).split('\n').map((line) => {
      if (!line.includes('"_id":"post-changelog-slack-threads"')) return line
      return JSON.stringify({ ...JSON.parse(line), title: NASTY_TITLES['everything at once'] })
    })
    await writeFile(path.join(dir, 'production.ndjson'), seed.join('\n'))
    await symlink(path.resolve('sanity/seed/images'), path.join(dir, 'images'))
    vi.stubEnv('CONTENT_SEED_PATH', path.join(dir, 'production.ndjson'))
    vi.resetModules()

    const route = await import('@/app/og/[lang]/post/[slug]/route')
    expect(await route.generateStaticParams()).toContainEqual({ lang: 'en', slug: 'slack-threads-and-webhooks' })
    const response = await route.GET(new Request('http://localhost/og/en/post/slack-threads-and-webhooks'), {
      params: Promise.resolve({ lang: 'en', slug: 'slack-threads-and-webhooks' }),
    })
    expect(response.status).toBe(200)
    const png = Buffer.from(await response.arrayBuffer())
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 })
    expect(await warmPixels(png)).toBeGreaterThan(200)
    expect(network).not.toHaveBeenCalled()
  })
})

// The share image of a referral link (issue #69): names nobody unless its person opted in to the
// leaderboard (components/waitlist/share-name.ts answers no name until that is wired).
describe('a referral link’s share image', () => {
  const CODE = 'AbCdEfGhIjKlMnOpQr_-12'

  it('names nobody by default: the route draws the waitlist page’s own headline', async () => {
    const route = await import('@/app/og/[lang]/ref/[code]/route')
    const response = await route.GET(new Request(`http://localhost/og/en/ref/${CODE}`), { params: Promise.resolve({ lang: 'en', code: CODE }) })
    expect(response.status).toBe(200)
    // A minute, not a year: a name may go when its person opts out.
    expect(response.headers.get('cache-control')).toContain('max-age=60')
    const png = Buffer.from(await response.arrayBuffer())
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 })
    const { getWaitlistPage } = await import('@/sanity/content')
    const { png: plain } = await draw((await getWaitlistPage('en'))!.title)
    expect(png.equals(plain)).toBe(true)
    expect(network).not.toHaveBeenCalled()
  })

  it('refuses a code of a shape never minted, or an unknown language', async () => {
    const route = await import('@/app/og/[lang]/ref/[code]/route')
    const cases: [string, string][] = [
      ['en', 'short'],
      ['en', `${CODE}<b>`],
      ['xx', CODE],
    ]
    for (const [lang, code] of cases) expect((await route.GET(new Request('http://localhost/'), { params: Promise.resolve({ lang, code }) })).status).toBe(404)
  })

  it('draws a chosen name when one is given, markup and control characters as harmless text', async () => {
    const { drawReferralShareImage } = await import('@/components/waitlist/share-image')
    const nobody = Buffer.from(await (await drawReferralShareImage('en', null))!.arrayBuffer())
    for (const name of ['A.B.', '<img src=x onerror=alert(1)>', 'Ma\u202erk\u0000\u0007 🚀']) {
      const response = (await drawReferralShareImage('de', name))!
      const png = Buffer.from(await response.arrayBuffer())
      expect(pngSize(png)).toEqual({ width: 1200, height: 630 })
      expect(png.equals(nobody)).toBe(false)
    }
    expect(network).not.toHaveBeenCalled()
  })
})
