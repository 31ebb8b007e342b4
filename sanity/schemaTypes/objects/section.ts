import { defineArrayMember, defineField } from 'sanity'
import { iconField } from './icon'
import { imageField } from './image'
import { stringField, textField, usageClaimHint } from './fields'

/** A part of a fixed page as one collapsible object, so the Studio form mirrors the page top to bottom. */
export function sectionField(name: string, title: string, fields: ReturnType<typeof defineField>[]) {
  return defineField({
    name,
    title,
    type: 'object',
    options: { collapsible: true, collapsed: false },
    fields,
    validation: (rule) => rule.required(),
  })
}

export function headingFields({ withEyebrow = false }: { withEyebrow?: boolean } = {}) {
  return [
    ...(withEyebrow ? [stringField({ name: 'eyebrow', title: 'Small label above the title', max: 40, required: false })] : []),
    stringField({ name: 'title', title: 'Title', description: usageClaimHint, max: 90 }),
    textField({ name: 'subtitle', title: 'Subtitle', description: usageClaimHint, max: 240, rows: 2, required: false }),
  ]
}

/** Icon, title and description: features, audiences and values share this shape. */
export function cardListField({ name, title, min = 1, max = 9 }: { name: string; title: string; min?: number; max?: number }) {
  return defineField({
    name,
    title,
    type: 'array',
    of: [
      defineArrayMember({
        type: 'object',
        name: 'card',
        fields: [
          iconField(),
          stringField({ name: 'title', title: 'Title', max: 60 }),
          textField({ name: 'description', title: 'Description', max: 240, rows: 2 }),
          imageField({ name: 'image', title: 'Picture', description: 'Optional. Shown beside the text when the section uses the "rows" layout.' }),
        ],
        preview: { select: { title: 'title', subtitle: 'description', media: 'image' } },
      }),
    ],
    validation: (rule) => rule.required().min(min).max(max),
  })
}
