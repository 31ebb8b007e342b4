import { defineArrayMember, defineField, defineType } from 'sanity'
import { stringField, stringListField, textField, usageClaimHint } from '../objects/fields'
import { sampleFlagField } from '../objects/sampleFlag'
import { cardListField, headingFields, sectionField } from '../objects/section'

export const landingPage = defineType({
  name: 'landingPage',
  title: 'Landing page',
  type: 'document',
  fields: [
    sectionField('hero', 'Hero', [
      stringField({ name: 'badge', title: 'Badge above the headline', max: 60, required: false }),
      stringField({ name: 'title', title: 'Headline', max: 80 }),
      stringField({ name: 'titleHighlight', title: 'Highlighted end of the headline', max: 60, required: false }),
      textField({ name: 'subtitle', title: 'Subtitle', max: 280, rows: 3 }),
      stringField({ name: 'primaryCtaLabel', title: 'Primary button (to the waitlist)', max: 32 }),
      stringField({ name: 'secondaryCtaLabel', title: 'Secondary button (opens the demo)', max: 32 }),
      stringListField({ name: 'highlights', title: 'Highlights under the buttons', max: 40, maxItems: 4 }),
      stringField({ name: 'socialProof', title: 'Social proof line', description: usageClaimHint, max: 90, required: false }),
    ]),
    sectionField('logos', 'Logo strip', [
      stringField({ name: 'title', title: 'Title', description: usageClaimHint, max: 90 }),
      defineField({
        name: 'items',
        title: 'Company names',
        type: 'array',
        of: [
          defineArrayMember({
            type: 'object',
            name: 'logo',
            fields: [stringField({ name: 'name', title: 'Company name', max: 40 }), sampleFlagField()],
            preview: { select: { title: 'name', sample: 'isSample' }, prepare: ({ title, sample }) => ({ title, subtitle: sample ? 'Sample' : undefined }) },
          }),
        ],
        validation: (rule) => rule.required().min(3).max(8),
      }),
    ]),
    sectionField('features', 'Features (anchor #features)', [
      ...headingFields({ withEyebrow: true }),
      cardListField({ name: 'items', title: 'Features', min: 3, max: 9 }),
    ]),
    sectionField('audiences', '"Perfect for" audiences', [
      ...headingFields({ withEyebrow: true }),
      cardListField({ name: 'items', title: 'Audiences', min: 2, max: 6 }),
    ]),
    sectionField('pricing', 'Pricing (anchor #pricing)', [
      ...headingFields({ withEyebrow: true }),
      defineField({
        name: 'tiers',
        title: 'Tiers',
        description: 'Shown left to right in this order; drag to reorder.',
        type: 'array',
        of: [defineArrayMember({ type: 'reference', to: [{ type: 'pricingTier' }] })],
        validation: (rule) => rule.required().min(1).max(4).unique(),
      }),
      stringField({ name: 'footnote', title: 'Note under the tiers', max: 160, required: false }),
      stringField({ name: 'ctaLabel', title: 'Link under the tiers (to the waitlist)', max: 40 }),
      defineField({
        name: 'labels',
        title: 'Price labels',
        description: 'Words the tier cards build from each tier\'s numbers and switches.',
        type: 'object',
        options: { collapsible: true, collapsed: true },
        fields: [
          stringField({ name: 'free', title: 'Price of 0', max: 20 }),
          stringField({ name: 'perMonth', title: 'Per month suffix', max: 20 }),
          stringField({ name: 'perYear', title: 'Per year suffix', max: 20 }),
          stringField({ name: 'trial', title: 'Trial', description: '{n} is replaced by the number of days.', max: 40 }),
          stringField({ name: 'noCreditCard', title: 'No credit card required', max: 40 }),
          stringField({ name: 'cancelAnytime', title: 'Cancel anytime', max: 40 }),
        ],
        validation: (rule) => rule.required(),
      }),
    ]),
    sectionField('faq', 'Frequently asked questions', [
      ...headingFields(),
      defineField({
        name: 'items',
        title: 'Questions',
        type: 'array',
        of: [
          defineArrayMember({
            type: 'object',
            name: 'faqItem',
            fields: [
              stringField({ name: 'question', title: 'Question', max: 120 }),
              textField({ name: 'answer', title: 'Answer', max: 600, rows: 3 }),
            ],
            preview: { select: { title: 'question', subtitle: 'answer' } },
          }),
        ],
        validation: (rule) => rule.required().min(1).max(12),
      }),
    ]),
    sectionField('cta', 'Closing call to action', [
      ...headingFields(),
      stringField({ name: 'primaryCtaLabel', title: 'Primary button (to the waitlist)', max: 32 }),
      stringField({ name: 'secondaryCtaLabel', title: 'Secondary button (opens the demo)', max: 32 }),
      defineField({
        name: 'testimonial',
        title: 'Testimonial',
        type: 'object',
        fields: [
          textField({ name: 'quote', title: 'Quote', max: 320, rows: 3 }),
          stringField({ name: 'author', title: 'Name', max: 60 }),
          stringField({ name: 'role', title: 'Role and company', max: 80 }),
          sampleFlagField(),
        ],
        validation: (rule) => rule.required(),
      }),
    ]),
    defineField({
      name: 'demo',
      title: 'Demo conversation',
      description: 'The scripted interview the "Try Demo" buttons open. Write conversations under "Demo conversations".',
      type: 'reference',
      to: [{ type: 'demoConversation' }],
      validation: (rule) => rule.required(),
    }),
    defineField({ name: 'seo', title: 'Search and sharing', type: 'seo' }),
  ],
  preview: { prepare: () => ({ title: 'Landing page' }) },
})
