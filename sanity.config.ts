'use client'

/**
 * The Studio, embedded in the site at /studio. It only loads when a Sanity project is
 * configured (see app/(studio)/studio), so projectId is present whenever this runs in a browser.
 */
import { codeInput } from '@sanity/code-input'
import { visionTool } from '@sanity/vision'
import { defineConfig } from 'sanity'
import { presentationTool } from 'sanity/presentation'
import { structureTool } from 'sanity/structure'
import { publicEnv } from './lib/env'
import { SINGLETON_TYPES, schemaTypes } from './sanity/schemaTypes'
import { resolve } from './sanity/studio/presentation'
import { structure } from './sanity/studio/structure'

export default defineConfig({
  basePath: '/studio',
  title: 'Marketing site',
  // Typegen and schema extraction run without a project; the Studio page never does.
  projectId: publicEnv.sanityProjectId ?? 'unconfigured',
  dataset: publicEnv.sanityDataset,
  schema: {
    types: schemaTypes,
    templates: (templates) => templates.filter(({ schemaType }) => !SINGLETON_TYPES.has(schemaType)),
  },
  document: {
    actions: (actions, { schemaType }) =>
      SINGLETON_TYPES.has(schemaType)
        ? actions.filter(({ action }) => action !== 'duplicate' && action !== 'delete' && action !== 'unpublish')
        : actions,
  },
  plugins: [
    structureTool({ structure }),
    // Shows the site beside the form with drafts applied, through /api/draft-mode/enable.
    presentationTool({ resolve, previewUrl: { initial: '/', previewMode: { enable: '/api/draft-mode/enable', disable: '/api/draft-mode/disable' } } }),
    visionTool({ defaultApiVersion: publicEnv.sanityApiVersion }),
    // The code blocks of posts.
    codeInput(),
  ],
})
