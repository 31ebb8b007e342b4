import { defineArrayMember, defineField, type ValidationContext } from 'sanity'
import { DEFAULT_LANGUAGE } from '../../../lib/i18n/languages'
import { localizedProblem, type LocalizedDraft } from '../../localized-text'
import { documentClient } from './validation-client'
import { languageCodeField } from './fields'

/**
 * A text written for every language inside one document (the questions at sign-up, the reward
 * ladder): one entry per language the waitlist page is published in, so the German page can never
 * show a question or a reward the English one does not. The rule is sanity/localized-text.ts.
 */

export const problemOrTrue = (problem: string | null) => problem ?? true

/** The languages the waitlist page is published in besides English: each needs every text. */
async function pageLanguages(context: ValidationContext): Promise<string[]> {
  const codes = await documentClient(context).fetch<string[]>(`*[_type == "waitlistPage" && !(_id in path("drafts.**"))].language`)
  return [...new Set((codes ?? []).filter((code): code is string => typeof code === 'string' && code !== DEFAULT_LANGUAGE))]
}

export function localizedField(name: string, title: string, description: string, max: number) {
  return defineField({
    name,
    title,
    description,
    type: 'array',
    of: [
      defineArrayMember({
        type: 'object',
        name: 'localizedText',
        title: 'Text in a language',
        fields: [languageCodeField(), defineField({ name: 'text', title: 'Text', type: 'string' })],
        preview: { select: { title: 'text', subtitle: 'language' } },
      }),
    ],
    validation: (rule) =>
      rule.custom(async (value: LocalizedDraft[] | undefined, context) => problemOrTrue(localizedProblem(value, await pageLanguages(context), max))),
  })
}
