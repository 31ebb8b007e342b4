import type { ComponentType } from 'react'
import { defineField, defineType, type FieldDefinition } from 'sanity'

/** Anchor ids: lowercase words and hyphens, so `/#pricing` style links stay simple and valid. */
export const ANCHOR_ID_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/

/**
 * A page-builder section: an object type with an optional anchor id, previewed in the
 * sections list by its heading, its kind and its icon, so a marketer can tell them apart
 * while dragging.
 */
export function defineSection({
  name,
  title,
  icon,
  fields,
  headingField = 'title',
}: {
  name: string
  title: string
  icon: ComponentType
  fields: FieldDefinition[]
  /** The field the sections list shows as the section's heading. */
  headingField?: string
}) {
  return defineType({
    name,
    title,
    type: 'object',
    icon,
    fields: [
      ...fields,
      defineField({
        name: 'hidden',
        title: 'Hide on the site',
        description: 'Keeps the section here but does not show it, e.g. while its copy is being reviewed.',
        type: 'boolean',
        initialValue: false,
      }),
      defineField({
        name: 'anchorId',
        title: 'Anchor id',
        description: 'Optional. Lets links jump to this section, e.g. "pricing" for /#pricing. Lowercase words and hyphens.',
        type: 'string',
        validation: (rule) =>
          rule
            .max(40)
            .custom((value) =>
              value === undefined || ANCHOR_ID_PATTERN.test(value) ? true : 'Use lowercase letters, digits and hyphens, starting with a letter',
            ),
      }),
    ],
    preview: {
      select: { heading: headingField, anchorId: 'anchorId', hidden: 'hidden' },
      prepare: ({ heading, anchorId, hidden }: { heading?: string; anchorId?: string; hidden?: boolean }) => ({
        title: heading || title,
        subtitle: [title, anchorId ? `#${anchorId}` : null, hidden ? 'hidden' : null].filter(Boolean).join(' · '),
        media: icon,
      }),
    },
  })
}
