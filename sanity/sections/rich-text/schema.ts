import { BlockContentIcon } from '@sanity/icons/BlockContent'
import { InfoOutlineIcon } from '@sanity/icons/InfoOutline'
import { LinkIcon } from '@sanity/icons/Link'
import { DocumentIcon } from '@sanity/icons/Document'
import { defineArrayMember, defineField } from 'sanity'
import { CONTACT_EMAIL_TOKEN, stringField, textField, USAGE_CLAIM_TOKEN } from '../../schemaTypes/objects/fields'
import { defineSection } from '../define-section'
import { CALLOUT_TONES, CODE_LANGUAGES, RICH_TEXT_LINK_SCHEMES } from './rules'

/**
 * Portable Text as the site renders it: headings h2–h4 (the page header holds the h1),
 * lists, bold, italic, inline code, links to pages (by reference, so a renamed slug never
 * breaks them) or to external addresses, images with alternative text, and callouts.
 */
export const richTextField = ({ code = false }: { code?: boolean } = {}) =>
  defineField({
    name: 'body',
    title: 'Text',
    description: `May contain ${USAGE_CLAIM_TOKEN} and ${CONTACT_EMAIL_TOKEN}, replaced by the usage claim and the general e-mail from Site settings.`,
    type: 'array',
    of: [
      defineArrayMember({
        type: 'block',
        styles: [
          { title: 'Paragraph', value: 'normal' },
          { title: 'Heading 2', value: 'h2' },
          { title: 'Heading 3', value: 'h3' },
          { title: 'Heading 4', value: 'h4' },
        ],
        lists: [
          { title: 'Bulleted list', value: 'bullet' },
          { title: 'Numbered list', value: 'number' },
        ],
        marks: {
          decorators: [
            { title: 'Bold', value: 'strong' },
            { title: 'Italic', value: 'em' },
            { title: 'Code', value: 'code' },
          ],
          annotations: [
            defineArrayMember({
              name: 'link',
              title: 'External link',
              type: 'object',
              icon: LinkIcon,
              fields: [
                defineField({
                  name: 'href',
                  title: 'Address',
                  description: 'https://…, http://… or mailto:…',
                  type: 'url',
                  validation: (rule) => rule.required().uri({ scheme: RICH_TEXT_LINK_SCHEMES }),
                }),
              ],
            }),
            defineArrayMember({
              name: 'pageLink',
              title: 'Page on this site',
              type: 'object',
              icon: DocumentIcon,
              fields: [defineField({ name: 'page', title: 'Page', type: 'reference', to: [{ type: 'page' }], validation: (rule) => rule.required() })],
            }),
          ],
        },
      }),
      defineArrayMember({
        type: 'image',
        options: { hotspot: true },
        fields: [
          stringField({ name: 'alt', title: 'Alternative text', description: 'What the image shows, for people who cannot see it. Required.', max: 160 }),
          stringField({ name: 'caption', title: 'Caption', max: 160, required: false }),
        ],
      }),
      defineArrayMember({
        type: 'object',
        name: 'callout',
        title: 'Callout',
        icon: InfoOutlineIcon,
        fields: [
          defineField({
            name: 'tone',
            title: 'Kind',
            type: 'string',
            options: { list: [...CALLOUT_TONES], layout: 'radio', direction: 'horizontal' },
            initialValue: 'note',
            validation: (rule) => rule.required(),
          }),
          textField({ name: 'text', title: 'Text', max: 600, rows: 3 }),
        ],
        preview: { select: { title: 'text', subtitle: 'tone' } },
      }),
      // Posts show code (a changelog's API change); highlighted on the server, so no script reaches the page.
      ...(code ? [defineArrayMember({ type: 'code', options: { languageAlternatives: [...CODE_LANGUAGES], withFilename: true } })] : []),
    ],
    validation: (rule) => rule.required().min(1),
  })

export const richTextSection = defineSection({
  name: 'richTextSection',
  title: 'Rich text',
  icon: BlockContentIcon,
  headingField: 'body.0.children.0.text',
  fields: [richTextField()],
})
