/**
 * Edit links to a fixed document open the document itself (issue #56, item 3): the Studio's intent
 * resolution (sanity's structure tool, `resolveIntent`) finds the first document pane with the
 * document's id and sends the router to the ids of the list items above it, with the document's own
 * id in place of the last one. That path must lead back to the document, so the per-language list's
 * items carry the documents' ids. Built with Sanity's own StructureBuilder over our structure.
 */
import { describe, expect, it } from 'vitest'
import { codeInput } from '@sanity/code-input'
import { createSchema, type SanityClient } from 'sanity'
import { createStructureBuilder, type StructureResolverContext } from 'sanity/structure'
import { schemaTypes, SINGLETONS, UNTRANSLATED_SINGLETONS } from '@/sanity/schemaTypes'
import { singletonId } from '@/sanity/studio/languages'
import { structure } from '@/sanity/studio/structure'

const LANGUAGES = [
  { code: 'en', title: 'English' },
  { code: 'de', title: 'Deutsch' },
]
// The Studio reads the languages from the dataset; the structure asks nothing else of the client.
const client = { withConfig: () => client, fetch: async () => LANGUAGES } as unknown as SanityClient
// Posts' code blocks are a plugin's type (sanity.config.ts).
const pluginTypes = (codeInput().schema as { types: unknown[] }).types
const schema = createSchema({ name: 'test', types: [...schemaTypes, ...pluginTypes] })
const source = {
  projectId: 'test',
  dataset: 'test',
  schema,
  getClient: () => client,
  currentUser: null,
  i18n: { t: (key: string) => key },
  document: { resolveNewDocumentOptions: () => [] },
}

type Pane = { type: string; id: string; items?: { type: string; id: string }[]; child?: unknown; serialize?: (options: object) => Pane }
type Context = { id: string; path: string[]; parent: Pane | null }

/** What the structure tool does with a pane before showing it: call it, await it, serialize it. */
async function resolvePane(pane: unknown, context: Context): Promise<Pane | undefined> {
  let current = pane
  for (;;) {
    if (!current) return undefined
    if (typeof (current as PromiseLike<unknown>).then === 'function') current = await current
    else if (typeof (current as Pane).serialize === 'function') current = (current as Pane).serialize!({ path: context.path, index: 0 })
    else if (typeof current === 'function')
      current = (current as (id: string, context: object) => unknown)(context.id, { ...context, params: {}, splitIndex: 0, index: 0 })
    else return current as Pane
  }
}

async function rootPane() {
  const S = createStructureBuilder({ source: source as never, perspectiveStack: [] } as never)
  return resolvePane(structure(S, { ...source, getClient: () => client } as unknown as StructureResolverContext), { id: 'root', path: [], parent: null })
}

/** The router path an edit intent for `id` is sent to: breadth first, the first document pane with that id. */
async function intentPath(root: Pane, id: string): Promise<string[] | undefined> {
  let level: { pane: Pane; path: string[] }[] = [{ pane: root, path: [] }]
  while (level.length) {
    const next: typeof level = []
    for (const { pane, path } of level) {
      if (pane.type === 'document' && pane.id === id) return [...path.slice(0, -1), id]
      if (pane.type !== 'list' || !pane.child) continue
      for (const item of pane.items ?? []) {
        if (item.type === 'divider') continue
        const child = await resolvePane(pane.child, { id: item.id, path: [...path, item.id], parent: pane })
        if (child) next.push({ pane: child, path: [...path, item.id] })
      }
    }
    level = next
  }
  return undefined
}

/** The pane the router shows at the end of `path`, resolved as the structure tool does, one id at a time. */
async function open(root: Pane, path: string[]) {
  let pane: Pane | undefined = root
  for (const [index, id] of path.entries()) {
    if (!pane) return undefined
    pane = await resolvePane(pane.child, { id, path: path.slice(0, index + 1), parent: pane })
  }
  return pane
}

const FIXED_DOCUMENTS = SINGLETONS.flatMap(({ type }) =>
  UNTRANSLATED_SINGLETONS.has(type) ? [singletonId(type, 'en')] : LANGUAGES.map(({ code }) => singletonId(type, code)),
)

describe('edit links to fixed documents', () => {
  it('open the document itself, in every language', async () => {
    const root = (await rootPane())!
    for (const id of FIXED_DOCUMENTS) {
      const path = await intentPath(root, id)
      expect(path, id).toBeDefined()
      expect(await open(root, path!), id).toMatchObject({ type: 'document', id })
    }
  })
})
