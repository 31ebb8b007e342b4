import { defineField, type FieldDefinition } from 'sanity'
import { plainTextRule } from '../../../lib/content/plain-text'
import { DEFAULT_LANGUAGE, LANGUAGE_CODE_PATTERN } from '../../../lib/i18n/languages'

// Shared field builders: every marketer-facing text has a title, a description and a
// length limit, so a page cannot be published with copy that breaks its layout, and is plain text
// a reader can be shown (lib/content/plain-text.ts): no control or direction characters, not blank.

type TextFieldOptions = {
  name: string
  title: string
  description?: string
  max: number
  required?: boolean
  rows?: number
  initialValue?: string
  group?: string
}

export function stringField({ name, title, description, max, required = true, initialValue, group }: TextFieldOptions) {
  return defineField({
    name,
    title,
    description,
    group,
    type: 'string',
    initialValue,
    validation: (rule) => (required ? rule.required() : rule).max(max).custom(plainTextRule('line')),
  })
}

export function textField({ name, title, description, max, required = true, rows = 3, group }: TextFieldOptions) {
  return defineField({
    name,
    title,
    description,
    group,
    type: 'text',
    rows,
    validation: (rule) => (required ? rule.required() : rule).max(max).custom(plainTextRule('lines')),
  })
}

/** A required, collapsible group of words for one part of the site, e.g. the demo widget's or the search page's. */
export function wordsField({
  name,
  title,
  description,
  group,
  collapsed = true,
  fields,
}: {
  name: string
  title: string
  description: string
  group: string
  collapsed?: boolean
  fields: FieldDefinition[]
}) {
  return defineField({
    name,
    title,
    description,
    type: 'object',
    group,
    options: { collapsible: true, collapsed },
    fields,
    validation: (rule) => rule.required(),
  })
}

/** A list of short strings, e.g. benefits or plan features. */
export function stringListField({
  name,
  title,
  description,
  max,
  min = 1,
  maxItems = 12,
}: Omit<TextFieldOptions, 'required' | 'rows' | 'initialValue'> & { min?: number; maxItems?: number }) {
  return defineField({
    name,
    title,
    description,
    type: 'array',
    of: [{ type: 'string', validation: (rule) => rule.required().max(max).custom(plainTextRule('line')) }],
    validation: (rule) => rule.required().min(min).max(maxItems),
  })
}

import { USAGE_CLAIM_TOKEN } from '../../tokens'

export { CONTACT_EMAIL_TOKEN, USAGE_CLAIM_TOKEN } from '../../tokens'

export const usageClaimHint = `May contain ${USAGE_CLAIM_TOKEN}, replaced by the usage claim from Site settings so every page states the same figure.`

/** The language of one entry of a per-language list (a section, a question's words): a code the site speaks. */
export function languageCodeField() {
  return defineField({
    name: 'language',
    title: 'Language',
    description: 'The language code, e.g. "en" or "de".',
    type: 'string',
    initialValue: DEFAULT_LANGUAGE,
    validation: (rule) => rule.required().regex(LANGUAGE_CODE_PATTERN),
  })
}
