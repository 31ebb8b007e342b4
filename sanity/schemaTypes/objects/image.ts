import { defineField } from 'sanity'
import { sampleFlagField } from './sampleFlag'
import { plainTextRule } from '../../../lib/content/plain-text'

/**
 * An image a section shows, through Sanity's image pipeline. Alternative text is required
 * unless the picture is decoration only; `sample` adds the "Sample content" flag for pictures
 * that are illustrative (a made-up logo or photo), which a deployed site never shows.
 */
export function imageField({
  name,
  title,
  description,
  altDescription = 'What the picture shows, for people who cannot see it.',
  sample = false,
  required = false,
}: {
  name: string
  title: string
  description?: string
  /** Null when the site writes the alternative text itself (a logo's company name). */
  altDescription?: string | null
  sample?: boolean
  required?: boolean
}) {
  return defineField({
    name,
    title,
    description,
    type: 'image',
    options: { hotspot: true },
    fields: [
      ...(altDescription === null
        ? []
        : [
            defineField({
              name: 'alt',
              title: 'Alternative text',
              description: altDescription,
              type: 'string',
              validation: (rule) => rule.required().max(120).custom(plainTextRule('line')),
            }),
          ]),
      // Off by default: an uploaded picture is usually the real one.
      ...(sample ? [sampleFlagField({ initialValue: false })] : []),
    ],
    validation: (rule) => (required ? rule.required().assetRequired() : rule),
  })
}
