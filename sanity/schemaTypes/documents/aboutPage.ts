import { defineField, defineType } from 'sanity'
import { stringField, textField } from '../objects/fields'
import { cardListField, headingFields, sectionField } from '../objects/section'

const proseSection = (name: string, title: string) =>
  sectionField(name, title, [
    stringField({ name: 'title', title: 'Title', max: 60 }),
    textField({ name: 'body', title: 'Text', max: 900, rows: 5 }),
  ])

export const aboutPage = defineType({
  name: 'aboutPage',
  title: 'About page',
  type: 'document',
  fields: [
    sectionField('hero', 'Hero', headingFields({ withEyebrow: true })),
    proseSection('mission', 'Our Mission'),
    proseSection('vision', 'Our Vision'),
    sectionField('values', 'Our Values', [...headingFields(), cardListField({ name: 'items', title: 'Values', min: 3, max: 6 })]),
    proseSection('team', 'The Team'),
    sectionField('contact', 'Get in Touch', [
      ...headingFields(),
      stringField({ name: 'generalEmailLabel', title: 'Label for the general e-mail', max: 40 }),
      stringField({ name: 'supportEmailLabel', title: 'Label for the support e-mail', max: 40 }),
      stringField({ name: 'locationLabel', title: 'Label for the location', max: 40 }),
    ]),
    sectionField('cta', 'Closing call to action', [
      ...headingFields(),
      stringField({ name: 'buttonLabel', title: 'Button (to the waitlist)', max: 32 }),
    ]),
    defineField({ name: 'seo', title: 'Search and sharing', type: 'seo' }),
  ],
  preview: { prepare: () => ({ title: 'About page' }) },
})
