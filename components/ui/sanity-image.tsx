import { sanityImageAttributes, type SectionImage } from '@/lib/content/image'
import { cn } from '@/lib/cn'
import { publicEnv } from '@/lib/env'

/**
 * An image from Sanity's pipeline as a plain <img> drawn on the server: srcset and sizes,
 * width and height (so its box is reserved before it loads: no layout shift), a tinted box
 * while it loads, and lazy loading unless it sits in the first screen (`eager`). next/image
 * would add client JavaScript to every page that shows a picture. Nothing without an asset.
 */
export function SanityImage({
  image,
  sizes,
  alt,
  eager = false,
  className,
}: {
  image: SectionImage | null | undefined
  sizes: string
  /** Instead of the image's own alternative text: a logo's company name, '' beside a caption that says it all. */
  alt?: string
  eager?: boolean
  className?: string
}) {
  const attributes = image ? sanityImageAttributes(image, { projectId: publicEnv.sanityProjectId, dataset: publicEnv.sanityDataset }) : null
  if (!image || !attributes) return null
  return (
    // eslint-disable-next-line @next/next/no-img-element
    <img
      {...attributes}
      sizes={attributes.srcSet ? sizes : undefined}
      alt={alt ?? image.alt ?? ''}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      className={cn('h-auto max-w-full bg-slate-100', className)}
    />
  )
}
