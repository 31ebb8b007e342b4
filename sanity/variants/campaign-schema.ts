import { TargetIcon } from '@sanity/icons/Target'
import { defineField, defineType, type SlugValue } from 'sanity'
import { duplicateLanguageProblem, variantLanguagesProblem } from './experiment-rules'
import { campaignKeyProblem, campaignTagProblem, sameTagsProblem, type CampaignTags } from './campaign-rules'
import { stringField } from '../schemaTypes/objects/fields'
import { sectionInLanguagesField, sectionTargetField, targetPages } from './section-target'
import { documentClient, publishedId } from '../schemaTypes/objects/validation-client'

type Draft = { utmCampaign?: string; utmSource?: string; target?: { page?: { _ref?: string }; sectionKey?: string } }

/**
 * A campaign version of one section of one page (issue #55): a visitor whose address carries the
 * campaign's tags sees this section in place of the page's, in the first HTML, in every language
 * it is written in. Live while published; nothing is remembered about the visitor, and the next
 * page they open is the normal site (docs/editors.md, "Campaigns").
 */
export const campaign = defineType({
  name: 'campaign',
  title: 'Campaign version',
  type: 'document',
  icon: TargetIcon,
  fields: [
    stringField({ name: 'title', title: 'Title', description: 'Who it speaks to, for the Studio and the founders’ console.', max: 90 }),
    defineField({
      name: 'key',
      title: 'Key',
      description: 'Lowercase letters, digits and hyphens, e.g. "pm-linkedin-hero": its row in the founders’ console.',
      type: 'slug',
      options: { source: 'title', maxLength: 40, isUnique: () => true },
      validation: (rule) =>
        rule.required().custom(async (value: SlugValue | undefined, context) => {
          const problem = campaignKeyProblem(value?.current)
          if (problem) return problem
          const id = publishedId(context.document?._id)
          const taken = await documentClient(context).fetch<number>(
            'count(*[_type == "campaign" && key.current == $key && !(_id in [$id, "drafts." + $id])])',
            { key: value!.current, id },
          )
          return taken > 0 ? `Another campaign version already has the key "${value!.current}"` : true
        }),
    }),
    defineField({
      name: 'utmCampaign',
      title: 'utm_campaign',
      description: 'The value the campaign’s links carry, exactly (case counts): /?utm_campaign=pm-launch answers "pm-launch".',
      type: 'string',
      validation: (rule) =>
        rule.custom(async (value: string | undefined, context) => {
          const problem = campaignTagProblem(value, 'utm_campaign', true)
          if (problem) return problem
          const { utmSource, target } = (context.document ?? {}) as Draft
          if (!target?.page?._ref || !target.sectionKey) return true
          const id = publishedId(context.document?._id)
          const others = await documentClient(context).fetch<CampaignTags[]>(
            `*[_type == "campaign" && target.page._ref == $page && target.sectionKey == $section && !(_id in [$id, "drafts." + $id]) && !(_id in path("drafts.**"))]{
              "key": key.current, utmCampaign, "utmSource": coalesce(utmSource, null)
            }`,
            { page: target.page._ref, section: target.sectionKey, id },
          )
          return sameTagsProblem({ utmCampaign: value!, utmSource: utmSource || null }, others) ?? true
        }),
    }),
    defineField({
      name: 'utmSource',
      title: 'utm_source (optional)',
      description:
        'Only visitors whose links also carry this utm_source, e.g. "linkedin". A version that names the source wins over one that does not for the same campaign.',
      type: 'string',
      validation: (rule) => rule.custom((value: string | undefined) => campaignTagProblem(value, 'utm_source', false) ?? true),
    }),
    sectionTargetField('What it replaces', 'The English page; its translations show the version too, where it is written in their language.'),
    defineField({
      ...sectionInLanguagesField('campaignSection', {
        description: 'Edited like the section on the page, with the same rules. A language without one shows the page as published.',
        sectionDescription: 'Exactly one section: the campaign’s version of the page’s section.',
      }),
      validation: (rule) =>
        rule
          .required()
          .min(1)
          .custom(async (value: { language?: string }[] | undefined, context) => {
            const problem =
              duplicateLanguageProblem(value) ??
              variantLanguagesProblem(
                { sections: value },
                (await targetPages(context)).map((page) => page.language),
              )
            return problem ?? true
          }),
    }),
  ],
  preview: {
    select: { title: 'title', campaign: 'utmCampaign', source: 'utmSource' },
    prepare: ({ title, campaign, source }: { title?: string; campaign?: string; source?: string }) => ({
      title,
      subtitle: campaign ? `utm_campaign=${campaign}${source ? ` · utm_source=${source}` : ''}` : 'No campaign yet',
      media: TargetIcon,
    }),
  },
})
