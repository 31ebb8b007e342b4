import { ActivityIcon } from '@sanity/icons/Activity'
import { defineArrayMember, defineField, defineType, type SlugValue } from 'sanity'
import {
  duplicateLanguageProblem,
  duplicateVariantProblem,
  EXPERIMENT_GOALS,
  EXPERIMENT_STATES,
  experimentKeyProblem,
  sharesProblem,
  variantKeyProblem,
  variantLanguagesProblem,
  type VariantDraft,
} from './experiment-rules'
import { stringField } from '../schemaTypes/objects/fields'
import { sectionInLanguagesField, sectionTargetField, targetPages } from './section-target'
import { documentClient, publishedId } from '../schemaTypes/objects/validation-client'

const problemOrTrue = (problem: string | null) => problem ?? true

/**
 * An experiment: one section of one page, shown as it is published (control) to some
 * participants and as each variant to others, in every language of the page. One document for all
 * languages, so stopping it or changing a share applies everywhere at once (docs/editors.md,
 * "Experiments").
 */
export const experiment = defineType({
  name: 'experiment',
  title: 'Experiment',
  type: 'document',
  icon: ActivityIcon,
  fields: [
    stringField({ name: 'title', title: 'Title', description: 'What the experiment asks, for the Studio and the founders’ console.', max: 90 }),
    defineField({
      name: 'key',
      title: 'Key',
      description:
        'Lowercase letters, digits and hyphens, e.g. "hero-headline". The PostHog feature flag of the same key collects its results. Never change it while it runs.',
      type: 'slug',
      options: { source: 'title', maxLength: 40, isUnique: () => true },
      validation: (rule) =>
        rule.required().custom(async (value: SlugValue | undefined, context) => {
          const problem = experimentKeyProblem(value?.current)
          if (problem) return problem
          const id = publishedId(context.document?._id)
          const taken = await documentClient(context).fetch<number>(
            'count(*[_type == "experiment" && key.current == $key && !(_id in [$id, "drafts." + $id])])',
            { key: value!.current, id },
          )
          return taken > 0 ? `Another experiment already has the key "${value!.current}"` : true
        }),
    }),
    defineField({
      name: 'state',
      title: 'State',
      description:
        'Draft: nobody takes part. Running: consenting visitors are assigned. Stopped: everyone sees the page as published. Takes effect on the next request after publishing.',
      type: 'string',
      options: {
        list: EXPERIMENT_STATES.map((value) => ({ title: value[0]!.toUpperCase() + value.slice(1), value })),
        layout: 'radio',
        direction: 'horizontal',
      },
      initialValue: 'draft',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'goal',
      title: 'Goal',
      type: 'string',
      options: {
        list: [
          { title: 'Joins the waitlist', value: EXPERIMENT_GOALS[0] },
          { title: 'Clicks "Start free trial"', value: EXPERIMENT_GOALS[1] },
        ],
        layout: 'radio',
      },
      initialValue: EXPERIMENT_GOALS[0],
      validation: (rule) => rule.required(),
    }),
    sectionTargetField('What it varies', 'The English page; its translations are varied too.'),
    defineField({
      name: 'variants',
      title: 'Variants',
      description: 'Control is the section as published on the page and gets the share the variants leave.',
      type: 'array',
      validation: (rule) =>
        rule
          .required()
          .min(1)
          .max(5)
          .custom((value: VariantDraft[] | undefined) => problemOrTrue(sharesProblem(value) ?? duplicateVariantProblem(value))),
      of: [
        defineArrayMember({
          type: 'object',
          name: 'experimentVariant',
          title: 'Variant',
          validation: (rule) =>
            rule.custom(async (value: VariantDraft | undefined, context) =>
              problemOrTrue(
                value
                  ? (duplicateLanguageProblem(value.sections) ??
                      variantLanguagesProblem(
                        value,
                        (await targetPages(context)).map((page) => page.language),
                      ))
                  : null,
              ),
            ),
          fields: [
            defineField({
              name: 'key',
              title: 'Key',
              description: 'e.g. "b". Lowercase letters, digits and hyphens; not "control".',
              type: 'string',
              validation: (rule) => rule.required().custom((value: string | undefined) => problemOrTrue(variantKeyProblem(value))),
            }),
            defineField({
              name: 'share',
              title: 'Share of participants (%)',
              type: 'number',
              validation: (rule) => rule.required().integer().min(1).max(100),
            }),
            sectionInLanguagesField('experimentSection', {
              description: 'Edited like the section on the page, with the same rules. A language without one shows control.',
              sectionDescription: 'Exactly one section: this variant of the page’s section.',
            }),
          ],
          preview: {
            select: { title: 'key', share: 'share' },
            prepare: ({ title, share }: { title?: string; share?: number }) => ({
              title: title ?? 'New variant',
              subtitle: typeof share === 'number' ? `${share} %` : undefined,
            }),
          },
        }),
      ],
    }),
  ],
  preview: {
    select: { title: 'title', key: 'key.current', state: 'state' },
    prepare: ({ title, key, state }: { title?: string; key?: string; state?: string }) => ({
      title,
      subtitle: [key, state].filter(Boolean).join(' · '),
      media: ActivityIcon,
    }),
  },
})
