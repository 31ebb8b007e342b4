import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { sanityImageAttributes } from '@/lib/content/image'
import { imageDimensions, seedImageFiles, seedImagesDir, withSeedAssets } from '@/sanity/seed/assets'
import { evaluateQuery, parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'seed')
const imagesDir = seedImagesDir('sanity/seed/production.ndjson')

describe('seed images', () => {
  it('are files beside the seed, named the way `sanity dataset import` reads them (image@file://./images/…)', () => {
    const files = seedImageFiles(seed)
    expect(files).toContain('logo-northwind.svg')
    expect(imagesDir).toMatch(/sanity\/seed\/images$/)
    for (const file of files) expect(readFileSync(`${imagesDir}/${file}`).length).toBeLessThan(8_000)
  })

  it('read their size from an SVG (attributes or viewBox) or a PNG header', () => {
    expect(imageDimensions(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"></svg>'), 'svg')).toEqual({ width: 160, height: 40 })
    expect(imageDimensions(Buffer.from('<svg viewBox="0 0 1200 600.4"></svg>'), 'svg')).toEqual({ width: 1200, height: 600 })
    const png = Buffer.alloc(24)
    png.write('IHDR', 12, 'ascii')
    png.writeUInt32BE(640, 16)
    png.writeUInt32BE(480, 20)
    expect(imageDimensions(png, 'png')).toEqual({ width: 640, height: 480 })
    expect(() => imageDimensions(Buffer.from('<svg></svg>'), 'svg')).toThrow(/viewBox/)
  })

  it('refuse a path outside the images folder or another format', () => {
    const doc = (asset: string): SeedDocument => ({ _id: 'x', _type: 'x', image: { _type: 'image', _sanityAsset: asset } })
    for (const bad of ['image@file://./images/../../.env', 'image@file:///etc/passwd', 'image@https://example.com/a.svg', 'image@file://./images/a.gif']) {
      expect(() => seedImageFiles([doc(bad)]), bad).toThrow(/Seed image/)
    }
  })

  it('become what an import makes of them: asset documents, referenced, with URL and dimensions, so the same GROQ reads them', async () => {
    const documents = await withSeedAssets(seed, imagesDir)
    expect(JSON.stringify(documents)).not.toContain('_sanityAsset')
    const logos = (await evaluateQuery(
      documents,
      `*[_id == "landingPage"][0].sections[_type == "logoStripSection"][0].items[]{name, "ref": logo.asset._ref, "url": logo.asset->url, "size": logo.asset->metadata.dimensions}`,
    )) as { name: string; ref: string; url: string; size: { width: number; height: number } }[]
    expect(logos.length).toBeGreaterThan(0)
    for (const logo of logos) {
      expect(logo.url).toMatch(/^\/seed-images\/logo-[a-z-]+\.svg$/)
      expect(logo.ref).toBe(`image-${logo.ref.split('-')[1]}-${logo.size.width}x${logo.size.height}-svg`)
    }
    // Without a Sanity project the image component serves the file itself, at its size.
    expect(sanityImageAttributes({ asset: { _ref: logos[0]!.ref }, url: logos[0]!.url }, { projectId: undefined, dataset: 'production' })).toEqual({
      src: logos[0]!.url,
      srcSet: undefined,
      width: logos[0]!.size.width,
      height: logos[0]!.size.height,
    })
    // Any other URL is not a seed image: nothing is drawn rather than a broken picture.
    expect(
      sanityImageAttributes({ asset: { _ref: logos[0]!.ref }, url: 'https://elsewhere.example/a.svg' }, { projectId: undefined, dataset: 'production' }),
    ).toBeNull()
  })
})

describe('the seed image route (app/seed-images)', () => {
  afterEach(() => vi.unstubAllEnvs())
  const route = () => import('@/app/seed-images/[file]/route')
  const get = async (file: string) => (await route()).GET(new Request(`http://localhost/seed-images/${file}`), { params: Promise.resolve({ file }) })

  it('serves the seed images in a build with embedded defaults', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    vi.stubEnv('EMBEDDED_DEFAULTS', 'true')
    expect((await (await route()).generateStaticParams()).map((p) => p.file)).toEqual(seedImageFiles(seed))
    const response = await get('logo-northwind.svg')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/svg+xml')
    expect((await get('..%2F..%2Fpackage.json')).status).toBe(404)
  })

  it('does not exist in a deployment build: no pages are generated and every request is 404', async () => {
    vi.stubEnv('NODE_ENV', 'production')
    vi.stubEnv('EMBEDDED_DEFAULTS', '')
    expect(await (await route()).generateStaticParams()).toEqual([])
    expect((await get('logo-northwind.svg')).status).toBe(404)
  })
})
