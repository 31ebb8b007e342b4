import { defineArrayMember, defineField, type ValidationContext } from 'sanity'
import { SECTION_SCHEMAS } from '../sections/schemas'
import { targetProblem } from './experiment-rules'
import { DEFAULT_LANGUAGE } from '../../lib/i18n/languages'
import { documentClient } from '../schemaTypes/objects/validation-client'
import { languageCodeField } from '../schemaTypes/objects/fields'

/**
 * What an experiment and a campaign both hold: one section of one page they replace (`target`), and
 * that section in each language of the page. One definition, so both are edited alike.
 */

/** The page types a section can be varied on: those made of sections. */
export const SECTIONED_PAGE_TYPES = ['landingPage', 'aboutPage', 'page'] as const

export type TargetPage = { language: string; sectionKeys: string[] }

/**
 * The published page a document's `target` names, in every language it is translated to (the
 * translations keep their sections' keys when made from the English one).
 */
export async function targetPages(context: ValidationContext): Promise<TargetPage[]> {
  const ref = (context.document as { target?: { page?: { _ref?: string } } } | undefined)?.target?.page?._ref
  if (!ref) return []
  return documentClient(context).fetch<TargetPage[]>(
    `*[(_id == $ref || _id in *[_type == "translation.metadata" && $ref in translations[].value._ref][0].translations[].value._ref) && !(_id in path("drafts.**"))]{
      "language": coalesce(language, $base),
      "sectionKeys": coalesce(sections[]._key, [])
    }`,
    { ref, base: DEFAULT_LANGUAGE },
  )
}

/** The page and the key of its section that a document replaces. */
export function sectionTargetField(title: string, pageDescription: string) {
  return defineField({
    name: 'target',
    title,
    type: 'object',
    validation: (rule) =>
      rule.required().custom(async (value: { sectionKey?: string } | undefined, context) => {
        return targetProblem({ sectionKey: value?.sectionKey, pages: await targetPages(context) }) ?? true
      }),
    fields: [
      defineField({
        name: 'page',
        title: 'Page',
        description: pageDescription,
        type: 'reference',
        to: SECTIONED_PAGE_TYPES.map((type) => ({ type })),
        options: { filter: 'coalesce(language, $base) == $base', filterParams: { base: DEFAULT_LANGUAGE } },
        validation: (rule) => rule.required(),
      }),
      defineField({
        name: 'sectionKey',
        title: 'Section key',
        description: 'The key of the section on the page (open the section in the page and copy the last part of the address, after "_key==").',
        type: 'string',
        validation: (rule) => rule.required(),
      }),
    ],
  })
}

/**
 * The replacing section in each language of the page (`sections[]`, each `{language, sections[1]}`),
 * edited like the page's own sections with the same rules. `name` is the item's type name, which
 * documents already published carry.
 */
export function sectionInLanguagesField(name: string, { description, sectionDescription }: { description: string; sectionDescription: string }) {
  return defineField({
    name: 'sections',
    title: 'The section, in each language',
    description,
    type: 'array',
    validation: (rule) => rule.required().min(1),
    of: [
      defineArrayMember({
        type: 'object',
        name,
        title: 'Section in a language',
        fields: [
          languageCodeField(),
          defineField({
            name: 'sections',
            title: 'Section',
            description: sectionDescription,
            type: 'array',
            of: SECTION_SCHEMAS.map((section) => defineArrayMember({ type: section.name })),
            validation: (rule) => rule.required().min(1).max(1),
          }),
        ],
        preview: { select: { title: 'language', subtitle: 'sections.0._type' } },
      }),
    ],
  })
}
