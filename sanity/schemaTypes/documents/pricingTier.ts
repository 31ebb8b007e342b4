import { defineField, defineType } from 'sanity'
import { stringField, stringListField, textField } from '../objects/fields'

export const pricingTier = defineType({
  name: 'pricingTier',
  title: 'Pricing tier',
  type: 'document',
  fields: [
    stringField({ name: 'name', title: 'Name', max: 32 }),
    textField({ name: 'description', title: 'Short description', max: 140, rows: 2 }),
    defineField({
      name: 'price',
      title: 'Price',
      description: '0 shows as "Free".',
      type: 'number',
      validation: (rule) => rule.required().min(0).max(100000),
    }),
    defineField({
      name: 'currency',
      title: 'Currency',
      type: 'string',
      options: { list: ['USD', 'EUR', 'GBP'] },
      initialValue: 'USD',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'billingInterval',
      title: 'Billing interval',
      type: 'string',
      options: {
        list: [
          { title: 'Per month', value: 'month' },
          { title: 'Per year', value: 'year' },
        ],
      },
      initialValue: 'month',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'trialDays',
      title: 'Free trial (days)',
      description: '0 for no trial.',
      type: 'number',
      initialValue: 0,
      validation: (rule) => rule.required().integer().min(0).max(90),
    }),
    defineField({ name: 'noCreditCard', title: 'No credit card required', type: 'boolean', initialValue: false }),
    defineField({ name: 'cancelAnytime', title: 'Cancel anytime', type: 'boolean', initialValue: false }),
    defineField({
      name: 'insightsPerMonth',
      title: 'Insights included per month',
      type: 'number',
      validation: (rule) => rule.required().integer().min(0),
    }),
    stringField({
      name: 'insightsLabel',
      title: 'Insights line',
      description: 'e.g. "Up to {n} insights per month"; {n} is replaced by the number above.',
      max: 60,
    }),
    stringField({ name: 'overageNote', title: 'Overage note', description: 'What happens past the included insights.', max: 120, required: false }),
    stringListField({ name: 'features', title: 'Features', max: 60, maxItems: 10 }),
    defineField({
      name: 'availability',
      title: 'Availability',
      description: '"Coming soon" shows the plan with its button disabled.',
      type: 'string',
      options: {
        list: [
          { title: 'Available', value: 'available' },
          { title: 'Coming soon', value: 'comingSoon' },
        ],
        layout: 'radio',
      },
      initialValue: 'available',
      validation: (rule) => rule.required(),
    }),
    stringField({ name: 'ctaLabel', title: 'Button label', max: 40 }),
    defineField({ name: 'highlighted', title: 'Highlight this plan', type: 'boolean', initialValue: false }),
    stringField({ name: 'highlightLabel', title: 'Highlight label', description: 'e.g. "Most popular"', max: 24, required: false }),
  ],
  preview: {
    select: { title: 'name', price: 'price', availability: 'availability' },
    prepare: ({ title, price, availability }) => ({
      title,
      subtitle: `${price === 0 ? 'Free' : `${price}`}${availability === 'comingSoon' ? ' · coming soon' : ''}`,
    }),
  },
})
