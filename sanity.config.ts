'use client'

/**
 * The Studio, embedded in the site at /studio. It only loads when a Sanity project is
 * configured (see app/(studio)/studio), so projectId is present whenever this runs in a browser.
 */
import { codeInput } from '@sanity/code-input'
import { documentInternationalization } from '@sanity/document-internationalization'
import { visionTool } from '@sanity/vision'
import { defineConfig } from 'sanity'
import { presentationTool } from 'sanity/presentation'
import { structureTool } from 'sanity/structure'
import { publicEnv } from './lib/env'
import { SINGLETON_TYPES, SINGLETONS, schemaTypes, TRANSLATED_TYPES, UNTRANSLATED_SINGLETONS } from './sanity/schemaTypes'
import { fixedPageTemplate, studioLanguages } from './sanity/studio/languages'
import { resolve } from './sanity/studio/presentation'
import { keepOldAddresses } from './sanity/studio/keep-old-addresses'
import { structure } from './sanity/studio/structure'
import { previewsOff } from './sanity/studio/previews-off'

/**
 * `previews`: whether the site can show drafts (SANITY_API_READ_TOKEN is set where it runs; the
 * Studio page reads that on the server, components/studio/studio.tsx). Without it Presentation
 * could only say "Unable to connect": a tool of the same name says what to set instead.
 */
export const studioConfig = ({ previews }: { previews: boolean }) =>
  defineConfig({
    basePath: '/studio',
    title: 'Marketing site',
    // Typegen and schema extraction run without a project; the Studio page never does.
    projectId: publicEnv.sanityProjectId ?? 'unconfigured',
    dataset: publicEnv.sanityDataset,
    schema: {
      types: schemaTypes,
      // A fixed page gets no "new document" of its own, only the template its Studio entry in each
      // language opens with (which sets the language: the plugin adds none while the languages are read
      // from the dataset).
      templates: (templates) => [
        ...templates.filter(({ schemaType }) => !SINGLETON_TYPES.has(schemaType)),
        ...SINGLETONS.filter(({ type }) => !UNTRANSLATED_SINGLETONS.has(type)).map(({ type, title }) => ({
          id: fixedPageTemplate(type),
          title: `${title} in a language`,
          schemaType: type,
          parameters: [{ name: 'language', type: 'string' }],
          value: ({ language }: { language: string }) => ({ language }),
        })),
      ],
    },
    document: {
      actions: (actions, context) =>
        SINGLETON_TYPES.has(context.schemaType)
          ? actions.filter(({ action }) => action !== 'duplicate' && action !== 'delete' && action !== 'unpublish')
          : keepOldAddresses(actions, context),
    },
    plugins: [
      structureTool({ structure }),
      // Shows the site beside the form with drafts applied, through /api/draft-mode/enable.
      previews
        ? presentationTool({ resolve, previewUrl: { initial: '/', previewMode: { enable: '/api/draft-mode/enable', disable: '/api/draft-mode/disable' } } })
        : previewsOff(),
      visionTool({ defaultApiVersion: publicEnv.sanityApiVersion }),
      // The code blocks of posts.
      codeInput(),
      // Translations as documents, linked by a metadata document per set (docs/editors.md, "Languages and translations").
      documentInternationalization({
        supportedLanguages: async (client) => (await studioLanguages(client)).map(({ code, title }) => ({ id: code, title })),
        schemaTypes: [...TRANSLATED_TYPES],
        languageField: 'language',
      }),
    ],
  })

// The CLI (schema extraction, typegen) reads only the schema, the same either way.
export default studioConfig({ previews: true })
