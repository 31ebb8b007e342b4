import { defineField } from 'sanity'

/** Icons the site ships; a marketer picks one by name, the site renders it as inline SVG. */
export const ICON_NAMES = [
  'message',
  'sparkles',
  'chart',
  'slack',
  'clock',
  'target',
  'code',
  'shield',
  'users',
  'rocket',
  'store',
  'user',
  'heart',
  'zap',
  'lock',
  'globe',
] as const

export type IconName = (typeof ICON_NAMES)[number]

export function iconField() {
  return defineField({
    name: 'icon',
    title: 'Icon',
    type: 'string',
    options: { list: ICON_NAMES.map((value) => ({ title: value, value })) },
    validation: (rule) => rule.required(),
  })
}
