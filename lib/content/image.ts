import { createImageUrlBuilder } from '@sanity/image-url'
import { publicEnv } from '@/lib/env'

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
