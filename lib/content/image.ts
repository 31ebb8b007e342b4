import { createImageUrlBuilder } from '@sanity/image-url'
import { publicEnv } from '@/lib/env'
import { SEED_IMAGE_ROUTE } from './paths'

type ImageField = { asset?: { _ref: string } | null; hotspot?: unknown; crop?: unknown } | null | undefined

/**
 * A share image from Sanity's image CDN, cropped to 1200 × 630 around the editor's
 * hotspot. Null when there is no image or no project (the seed has no assets).
 */
export function shareImageUrl(image: ImageField): string | null {
  if (!image?.asset?._ref || !publicEnv.sanityProjectId) return null
  return createImageUrlBuilder({ projectId: publicEnv.sanityProjectId, dataset: publicEnv.sanityDataset })
    .image(image as Parameters<ReturnType<typeof createImageUrlBuilder>['image']>[0])
    .width(1200)
    .height(630)
    .fit('crop')
    .auto('format')
    .url()
}

/** An image field as the queries project it: the asset reference, the editor's crop, and the asset's URL. */
export type ImageValue = { asset?: { _ref?: string } | null; hotspot?: unknown; crop?: unknown; url?: string | null }

/** An image field as the sections receive it (IMAGE_PROJECTION). */
export type SectionImage = ImageValue & { alt?: string | null }

/** Sanity names image assets `image-<hash>-<width>x<height>-<format>`: the size is known without fetching the asset. */
export function assetDimensions(ref: string | undefined): { width: number; height: number } | null {
  const match = /^image-[A-Za-z0-9]+-(\d+)x(\d+)-[a-z0-9]+$/.exec(ref ?? '')
  return match ? { width: Number(match[1]), height: Number(match[2]) } : null
}

/** Widths offered to the browser; it picks by the `sizes` of the column the image sits in. */
const WIDTHS = [480, 768, 1024, 1536]

/**
 * The attributes of an image from Sanity's image pipeline: a srcset in the browser's best
 * format (auto=format), and the width and height that reserve its space before it loads.
 * Without a project, a seed image (sanity/seed/assets.ts) is served as its file, at its
 * size. Null for a malformed or missing asset.
 */
export function sanityImageAttributes(image: ImageValue, { projectId, dataset }: { projectId: string | undefined; dataset: string }) {
  const dimensions = assetDimensions(image.asset?._ref)
  if (!dimensions) return null
  if (!projectId) {
    return image.url?.startsWith(`${SEED_IMAGE_ROUTE}/`) ? { src: image.url, srcSet: undefined, ...dimensions } : null
  }
  const builder = createImageUrlBuilder({ projectId, dataset })
    .image(image as Parameters<ReturnType<typeof createImageUrlBuilder>['image']>[0])
    .auto('format')
    .fit('max')
  const widths = [...new Set([...WIDTHS.filter((width) => width < dimensions.width), Math.min(dimensions.width, WIDTHS.at(-1)!)])]
  const largest = widths.at(-1)!
  return {
    src: builder.width(largest).url(),
    srcSet: widths.map((width) => `${builder.width(width).url()} ${width}w`).join(', '),
    width: largest,
    height: Math.round((dimensions.height / dimensions.width) * largest),
  }
}
