import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { serverEnv } from '@/lib/env'
import { seedImageFiles, seedImagesDir } from '@/sanity/seed/assets'
import { readSeedDataset } from '@/sanity/seed/dataset'

// The seed's images, for the embedded content mode only (sanity/seed/assets.ts). Each is
// written out at build as a static file; a build without embedded defaults (a deployment) lists
// none, so there this path does not exist and answers 404.

export const dynamicParams = false

export async function generateStaticParams(): Promise<{ file: string }[]> {
  const { embeddedDefaults, contentSeedPath } = serverEnv()
  if (!embeddedDefaults) return []
  return seedImageFiles(await readSeedDataset(contentSeedPath)).map((file) => ({ file }))
}

const TYPES: Record<string, string> = { '.svg': 'image/svg+xml', '.png': 'image/png' }

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params
  const { embeddedDefaults, contentSeedPath } = serverEnv()
  const type = TYPES[path.extname(file)]
  // Only names generateStaticParams listed reach here; checked again, since a path is a path.
  if (!embeddedDefaults || !type || file !== path.basename(file)) return new Response('Not found', { status: 404 })
  const bytes = await readFile(path.join(seedImagesDir(contentSeedPath), file))
  return new Response(bytes, { headers: { 'content-type': type, 'cache-control': 'public, max-age=3600' } })
}
