import { TranslateIcon } from '@sanity/icons/Translate'
import { defineArrayMember, defineField, defineType } from 'sanity'
import { DEFAULT_LANGUAGE, LANGUAGE_CODE_PATTERN } from '../../../lib/i18n/languages'

type Entry = { code?: string; title?: string }

/**
 * The languages the site speaks. Adding one here (then translating the documents in it) is all a
 * new language takes: its pages appear under /<code>/… as their translations are published, and
 * only those; a document without a translation is not listed in that language.
 */
export const siteLanguages = defineType({
  name: 'siteLanguages',
  title: 'Languages',
  type: 'document',
  icon: TranslateIcon,
  fields: [
    defineField({
      name: 'languages',
      title: 'Languages',
      description: `English (${DEFAULT_LANGUAGE}) is the base language, at the addresses without a prefix; every other language is at /<code>/…, e.g. /de/about. The switcher lists them in this order.`,
      type: 'array',
      of: [
        defineArrayMember({
          type: 'object',
          name: 'language',
          fields: [
            defineField({
              name: 'code',
              title: 'Code',
              description: 'Two lowercase letters (ISO 639-1), optionally a region: "de", "fr", "pt-br". It becomes the address prefix.',
              type: 'string',
              validation: (rule) => rule.required().regex(LANGUAGE_CODE_PATTERN, { name: 'language code' }),
            }),
            defineField({
              name: 'title',
              title: 'Name',
              description: 'The language’s name in itself, as the switcher shows it: "Deutsch", "Français".',
              type: 'string',
              validation: (rule) => rule.required().max(30),
            }),
          ],
          preview: { select: { title: 'title', subtitle: 'code' } },
        }),
      ],
      validation: (rule) =>
        rule.required().custom((value: Entry[] | undefined) => {
          const codes = (value ?? []).map((entry) => entry.code)
          if (!codes.includes(DEFAULT_LANGUAGE)) return `English (${DEFAULT_LANGUAGE}) must stay in the list: it is the site's base language`
          const twice = codes.find((code, index) => codes.indexOf(code) !== index)
          return twice ? `"${twice}" is in the list twice` : true
        }),
    }),
  ],
  preview: { prepare: () => ({ title: 'Languages' }) },
})
