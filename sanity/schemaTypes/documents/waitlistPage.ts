import { defineField, defineType } from 'sanity'
import { stringField, stringListField, textField } from '../objects/fields'
import { sectionField } from '../objects/section'

export const waitlistPage = defineType({
  name: 'waitlistPage',
  title: 'Waitlist page',
  type: 'document',
  fields: [
    stringField({ name: 'backLabel', title: 'Back button', max: 32 }),
    stringField({ name: 'badge', title: 'Badge above the headline', max: 60, required: false }),
    stringField({ name: 'title', title: 'Headline', max: 80 }),
    textField({ name: 'intro', title: 'Pilot-phase copy', max: 400, rows: 3 }),
    stringField({ name: 'benefitsTitle', title: 'Benefits title', max: 60 }),
    stringListField({ name: 'benefits', title: 'Benefits', max: 80, min: 1, maxItems: 6 }),
    sectionField('form', 'Form', [
      stringField({ name: 'title', title: 'Title', max: 60 }),
      stringField({ name: 'nameLabel', title: 'Name label', max: 40 }),
      stringField({ name: 'namePlaceholder', title: 'Name placeholder', max: 60, required: false }),
      stringField({ name: 'companyLabel', title: 'Company label', max: 40 }),
      stringField({ name: 'companyPlaceholder', title: 'Company placeholder', max: 60, required: false }),
      stringField({ name: 'emailLabel', title: 'E-mail label', max: 40 }),
      stringField({ name: 'emailPlaceholder', title: 'E-mail placeholder', max: 60, required: false }),
      stringField({ name: 'lengthHint', title: 'Length hint', description: 'Shown under the name and company fields; {n} is replaced by the limit.', max: 40 }),
      stringField({ name: 'submitLabel', title: 'Button', max: 32 }),
      stringField({ name: 'submittingLabel', title: 'Button while sending', max: 32 }),
      stringField({ name: 'privacyNote', title: 'Privacy note', max: 120 }),
      stringField({
        name: 'errorRequired',
        title: 'Error: a required field is empty',
        description: 'Shown under the field. {field} is replaced by the field as named below, e.g. "Please enter {field}."',
        max: 100,
      }),
      stringField({
        name: 'errorTooLong',
        title: 'Error: too long',
        description: '{field} is replaced by the field as named below, {n} by its limit.',
        max: 120,
      }),
      stringField({ name: 'errorInvalidEmail', title: 'Error: not an e-mail address', max: 100 }),
      stringField({
        name: 'errorInvalidCharacters',
        title: 'Error: characters that cannot be stored',
        description: 'For the rare text the database cannot store (a broken emoji, a null character). {field} is replaced by the field as named below.',
        max: 120,
      }),
      stringField({ name: 'nameInSentence', title: 'The name field, inside an error', description: 'e.g. "your name"', max: 40 }),
      stringField({ name: 'emailInSentence', title: 'The e-mail field, inside an error', description: 'e.g. "your work email"', max: 40 }),
      stringField({ name: 'companyInSentence', title: 'The company field, inside an error', description: 'e.g. "the project or company"', max: 40 }),
    ]),
    sectionField('confirmation', 'Confirmation', [
      stringField({ name: 'title', title: 'Title', max: 60 }),
      textField({ name: 'text', title: 'Text', max: 300, rows: 2 }),
      stringField({ name: 'nextStepsTitle', title: '"What happens next?" title', max: 60 }),
      stringListField({ name: 'nextSteps', title: 'Next steps', max: 120, maxItems: 5 }),
      stringField({ name: 'backLabel', title: 'Back button', max: 32 }),
    ]),
    sectionField('messages', 'Messages (error catalogue)', [
      stringField({ name: 'success', title: 'Saved', max: 120 }),
      stringField({ name: 'duplicate', title: 'Already on the list', max: 120 }),
      stringField({ name: 'backendError', title: 'The database refused the sign-up', max: 120 }),
      stringField({ name: 'failure', title: 'The sign-up could not be sent', max: 120 }),
      stringField({ name: 'rateLimited', title: 'Too many sign-ups from one network', max: 120 }),
      stringField({ name: 'automated', title: 'Refused as automated (says how to go on)', max: 160 }),
    ]),
    defineField({ name: 'seo', title: 'Search and sharing', type: 'seo' }),
  ],
  preview: { prepare: () => ({ title: 'Waitlist page' }) },
})
