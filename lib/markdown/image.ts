import { sanityImageAttributes, type SectionImage } from '../content/image'
import { publicEnv } from '../env'
import { image } from './markdown'

/** A section's picture in a twin: its alternative text (or the words given) and its address; nothing without one. */
export function sectionImage(value: SectionImage | null | undefined, siteUrl: string, alt?: string | null): string {
  if (!value) return ''
  const attributes = sanityImageAttributes(value, { projectId: publicEnv.sanityProjectId, dataset: publicEnv.sanityDataset })
  return image(alt ?? value.alt ?? '', attributes?.src, siteUrl)
}
