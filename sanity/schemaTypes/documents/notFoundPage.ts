import { defineType } from 'sanity'
import { stringField, textField } from '../objects/fields'

export const notFoundPage = defineType({
  name: 'notFoundPage',
  title: 'Page not found (404)',
  type: 'document',
  fields: [
    stringField({ name: 'title', title: 'Title', max: 60 }),
    textField({ name: 'text', title: 'Text', max: 240, rows: 2 }),
    stringField({ name: 'homeLabel', title: 'Link home', max: 32 }),
  ],
  preview: { prepare: () => ({ title: 'Page not found (404)' }) },
})
