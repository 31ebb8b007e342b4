import { defineField, type DocumentDefinition, type PreviewConfig, type PreviewValue } from 'sanity'
import { DEFAULT_LANGUAGE } from '../../../lib/i18n/languages'

/**
 * What every translated document carries besides its own fields: its language (set when it is
 * created, by @sanity/document-internationalization's menu or the per-language templates, never
 * typed) and whether its translation still needs a person's review before launch.
 */
function translationFields() {
  return [
    defineField({
      name: 'language',
      title: 'Language',
      type: 'string',
      readOnly: true,
      hidden: true,
      initialValue: DEFAULT_LANGUAGE,
    }),
    defineField({
      name: 'translationNeedsReview',
      title: 'Translation needs review',
      description:
        'On while this translation is a machine’s or a sample: a native speaker (and, for legal pages, a lawyer) reviews it before launch. The launch list (docs/founders.md, “Before launch”) asks for none to be left on.',
      type: 'boolean',
      initialValue: false,
      hidden: ({ document }) => (document?.language ?? DEFAULT_LANGUAGE) === DEFAULT_LANGUAGE,
    }),
  ]
}

/**
 * The type's own preview with the document's language in front of its subtitle ("DE · 29"): a
 * list of pricing tiers or posts holds every language, and "Starter" twice said nothing of which
 * was which.
 */
export function withLanguage(preview: PreviewConfig | undefined): PreviewConfig {
  return {
    select: { title: 'title', ...preview?.select, language: 'language' },
    prepare: (selection: Record<string, unknown>) => {
      const { language, ...own } = selection
      const base: PreviewValue = preview?.prepare ? preview.prepare(own) : (own as PreviewValue)
      const code = (typeof language === 'string' && language ? language : DEFAULT_LANGUAGE).toUpperCase()
      return { ...base, subtitle: base.subtitle ? `${code} · ${base.subtitle}` : code }
    },
  }
}

/** A document type in every language: one document per language, linked as translations. */
export function translated<T extends DocumentDefinition>(type: T): T {
  return { ...type, fields: [...type.fields, ...translationFields()], preview: withLanguage(type.preview) }
}
