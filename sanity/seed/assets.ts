import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { SEED_IMAGE_ROUTE } from '../../lib/content/paths'
import type { SeedDocument } from './dataset'

// The seed's images, for the embedded content mode. In the seed an image is what `sanity dataset
// import` uploads: `{"_type": "image", "_sanityAsset": "image@file://./images/logo.svg"}`, a path
// relative to the NDJSON file. Sanity turns each into an asset document and a reference; this does
// the same locally, so the site's one GROQ (`asset->url`, `asset->metadata.dimensions`) and its one
// image component work unchanged, with the files served from the repository at SEED_IMAGE_ROUTE
// (a route that only a build with embedded defaults has: app/seed-images).

const ASSET_PATTERN = /^image@file:\/\/\.\/(?:images\/)?([A-Za-z0-9._-]+\.(svg|png))$/

/** The seed's images sit beside it, where `sanity dataset import` finds them (file://./images/…). */
export function seedImagesDir(seedPath: string): string {
  return path.join(path.dirname(path.resolve(/*turbopackIgnore: true*/ process.cwd(), seedPath)), 'images')
}

/** Width and height of an SVG (its width/height attributes, else its viewBox) or a PNG (its header). */
export function imageDimensions(bytes: Buffer, extension: string): { width: number; height: number } {
  if (extension === 'png') {
    if (bytes.toString('ascii', 12, 16) !== 'IHDR') throw new Error('not a PNG')
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
  }
  const root = /<svg\b[^>]*>/.exec(bytes.toString('utf8'))?.[0] ?? ''
  const attribute = (name: string) => new RegExp(`\\s${name}="([\\d.]+)(?:px)?"`).exec(root)?.[1]
  const viewBox = /\sviewBox="[\d.-]+[\s,]+[\d.-]+[\s,]+([\d.]+)[\s,]+([\d.]+)"/.exec(root)
  const width = Number(attribute('width') ?? viewBox?.[1])
  const height = Number(attribute('height') ?? viewBox?.[2])
  if (!(width > 0 && height > 0)) throw new Error('an SVG needs width and height, or a viewBox')
  return { width: Math.round(width), height: Math.round(height) }
}

/** The seed image files a dataset names (file names inside the images folder beside it). */
export function seedImageFiles(documents: SeedDocument[]): string[] {
  const files = new Set<string>()
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit)
    if (!value || typeof value !== 'object') return
    const asset = (value as { _sanityAsset?: unknown })._sanityAsset
    if (typeof asset === 'string') files.add(parseAsset(asset).file)
    Object.values(value).forEach(visit)
  }
  visit(documents)
  return [...files].sort()
}

function parseAsset(value: string): { file: string; extension: string } {
  const match = ASSET_PATTERN.exec(value)
  if (!match) throw new Error(`Seed image "${value}": use image@file://./images/<name>.svg or .png, a file beside the seed`)
  return { file: match[1]!, extension: match[2]! }
}

/**
 * The dataset as Sanity holds it after an import: each `_sanityAsset` replaced by a reference to
 * an image asset document with its URL (served locally) and dimensions.
 */
export async function withSeedAssets(documents: SeedDocument[], imagesDir: string): Promise<SeedDocument[]> {
  const assets = new Map<string, SeedDocument>()
  for (const file of seedImageFiles(documents)) {
    const extension = path.extname(file).slice(1)
    const bytes = await readFile(path.join(imagesDir, file))
    const { width, height } = imageDimensions(bytes, extension)
    const hash = createHash('sha1').update(bytes).digest('hex')
    const id = `image-${hash}-${width}x${height}-${extension}`
    assets.set(file, {
      _id: id,
      _type: 'sanity.imageAsset',
      url: `${SEED_IMAGE_ROUTE}/${file}`,
      extension,
      mimeType: extension === 'svg' ? 'image/svg+xml' : 'image/png',
      metadata: { _type: 'sanity.imageMetadata', dimensions: { _type: 'sanity.imageDimensions', width, height, aspectRatio: width / height } },
    })
  }
  if (assets.size === 0) return documents
  const replace = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(replace)
    if (!value || typeof value !== 'object') return value
    const { _sanityAsset: asset, ...rest } = value as Record<string, unknown>
    const replaced = Object.fromEntries(Object.entries(rest).map(([key, child]) => [key, replace(child)]))
    if (typeof asset !== 'string') return replaced
    return { ...replaced, asset: { _type: 'reference', _ref: assets.get(parseAsset(asset).file)!._id } }
  }
  return [...(documents.map(replace) as SeedDocument[]), ...assets.values()]
}
