import { Mutation } from '@sanity/mutator'
import { evaluateQuery, readSeedDataset, type SeedDocument } from '../../sanity/seed/dataset'

/**
 * The core of the Sanity double: a dataset as the Content Lake holds it, over an NDJSON file that
 * is re-read on every request (tests change content by rewriting it) with what was written since
 * kept in memory over it. Both front ends answer from here: the HTTP server the site's build
 * queries (sanity-standin.ts) and the Playwright routes the Studio talks to (studio-routes.ts).
 */
export type SentAction = { actionType: string; draftId?: string; publishedId?: string; [key: string]: unknown }

/** What the Content Lake sends down a listen stream for one document changed by one transaction. */
export type MutationEvent = {
  type: 'mutation'
  eventId: string
  documentId: string
  transactionId: string
  transition: 'appear' | 'disappear' | 'update'
  identity: string
  mutations: Record<string, unknown>[]
  previousRev: string | undefined
  resultRev: string
  effects: { apply: unknown[]; revert: unknown[] }
  timestamp: string
  visibility: 'transaction'
  transactionTotalEvents: number
  transactionCurrentEvent: number
}

export type ContentLake = {
  /** Every document, drafts included, each with a revision (`seed` until it is written). */
  documents: () => Promise<SeedDocument[]>
  /** Documents by id, as /data/doc answers: those found, and those missing as `omitted`. */
  getDocuments: (ids: string[]) => Promise<{ documents: SeedDocument[]; omitted: { id: string; reason: 'existence' }[] }>
  /** A request to the query API (GET or POST /data/query/<dataset>): its query and result. */
  query: (url: URL, postBody?: string) => Promise<{ query: string; result: unknown }>
  /** Applies the actions of one transaction by `identity`, and returns the events it sends to listeners. */
  act: (actions: SentAction[], transactionId: string, identity: string) => Promise<MutationEvent[]>
}

export function applyPerspective(documents: SeedDocument[], perspective: string | null): SeedDocument[] {
  const isDraft = (doc: SeedDocument) => doc._id.startsWith('drafts.')
  if (perspective === 'raw') return documents
  if (perspective !== 'drafts') return documents.filter((doc) => !isDraft(doc))
  const drafts = new Map(documents.filter(isDraft).map((doc) => [doc._id.slice('drafts.'.length), doc]))
  const published = documents
    .filter((doc) => !isDraft(doc))
    .map((doc) => {
      const draft = drafts.get(doc._id)
      return draft ? { ...draft, _id: doc._id } : doc
    })
  const ids = new Set(published.map((doc) => doc._id))
  const newDrafts = [...drafts].filter(([id]) => !ids.has(id)).map(([id, doc]) => ({ ...doc, _id: id }))
  return [...published, ...newDrafts]
}

/** The GROQ query and its parameters of a request to the query API: in the address (GET) or the body (POST). */
export function queryRequest(url: URL, postBody?: string): { query: string; params: Record<string, unknown> } {
  let query = url.searchParams.get('query') ?? ''
  const params: Record<string, unknown> = {}
  for (const [key, value] of url.searchParams) if (key.startsWith('$')) params[key.slice(1)] = JSON.parse(value)
  if (postBody !== undefined) {
    const body = JSON.parse(postBody) as { query: string; params?: Record<string, unknown> }
    query = body.query
    Object.assign(params, body.params)
  }
  return { query, params }
}

/** `extraDocuments`: documents beyond the file, seen only by this lake's front ends (the Studio's experiment). */
export function openContentLake({ datasetPath, extraDocuments = [] }: { datasetPath: string; extraDocuments?: SeedDocument[] }): ContentLake {
  // What has been written over the dataset file: a document, or null once deleted.
  const written = new Map<string, SeedDocument | null>()

  const documents = async () => {
    const stored = [...(await readSeedDataset(datasetPath)), ...extraDocuments].map((document) => ({ _rev: 'seed', ...document }))
    const ids = new Set(stored.map((document) => document._id))
    return [
      ...stored.map((document) => (written.has(document._id) ? written.get(document._id)! : document)),
      ...[...written].filter(([id]) => !ids.has(id)).map(([, document]) => document),
    ].filter((document): document is SeedDocument => document !== null)
  }

  const getDocuments = async (ids: string[]) => {
    const byId = new Map((await documents()).map((document) => [document._id, document]))
    return {
      documents: ids.flatMap((id) => byId.get(id) ?? []),
      omitted: ids.filter((id) => !byId.has(id)).map((id) => ({ id, reason: 'existence' as const })),
    }
  }

  const query = async (url: URL, postBody?: string) => {
    const { query, params } = queryRequest(url, postBody)
    // The Studio reads drafts with `drafts` among others; everything else is read as applyPerspective does.
    const perspective = url.searchParams.get('perspective')?.split(',').includes('drafts') ? 'drafts' : url.searchParams.get('perspective')
    // groq-js slices only by literal numbers (the Studio's list pages slice by parameters) and has no
    // text::query, which a list not being searched asks only to match everything ("*").
    const literal = query
      .replace(/\$(\w+)/g, (name, key: string) => (typeof params[key] === 'number' ? String(params[key]) : name))
      .replace(/\[@, _id\] match text::query\(\$__query\)/g, (search) => (params.__query === '*' ? 'true' : search))
    return { query, result: await evaluateQuery(applyPerspective(await documents(), perspective), literal, params) }
  }

  /** The mutations an action stands for, per document, as the Content Lake applies them. */
  const asMutations = async (action: SentAction): Promise<{ id: string; mutations: Record<string, unknown>[] }[]> => {
    const { actionType, draftId, publishedId } = action
    if (actionType === 'sanity.action.document.create') {
      const attributes = action.attributes as SeedDocument
      return [{ id: attributes._id, mutations: [{ create: attributes }] }]
    }
    if (actionType === 'sanity.action.document.edit') return [{ id: draftId!, mutations: [{ patch: { id: draftId, ...(action.patch as object) } }] }]
    if (actionType === 'sanity.action.document.publish') {
      const draft = (await documents()).find((document) => document._id === draftId)
      return [
        { id: publishedId!, mutations: [{ createOrReplace: { ...draft, _id: publishedId } }] },
        { id: draftId!, mutations: [{ delete: { id: draftId } }] },
      ]
    }
    return []
  }

  const act = async (actions: SentAction[], transactionId: string, identity: string) => {
    // One event per document per transaction, as the Content Lake sends: a transaction of several
    // edits to one draft (a slug's setIfMissing, then its text) is one change of that draft.
    const changes = [
      ...(await Promise.all(actions.map(asMutations)))
        .flat()
        .reduce((byId, { id, mutations }) => byId.set(id, [...(byId.get(id) ?? []), ...mutations]), new Map<string, Record<string, unknown>[]>()),
    ]
    const byId = new Map((await documents()).map((document) => [document._id, document]))
    const timestamp = new Date().toISOString()
    return changes.map(([id, sent], index): MutationEvent => {
      const before = byId.get(id) ?? null
      // An edit of a document with no draft yet first makes the draft from the published document, as
      // the Actions API does; the Studio applies a mutation to a missing document only if it creates one.
      const published = id.startsWith('drafts.') && !before ? byId.get(id.slice('drafts.'.length)) : undefined
      const mutations = published && 'patch' in sent[0]! ? [{ createIfNotExists: { ...published, _id: id } }, ...sent] : sent
      const after = new Mutation({ mutations: structuredClone(mutations), transactionId, resultRev: transactionId, timestamp }).apply(
        before ? structuredClone(before) : null,
      ) as SeedDocument | null
      written.set(id, after)
      byId.set(id, after!)
      return {
        type: 'mutation',
        eventId: `${transactionId}#${id}`,
        documentId: id,
        transactionId,
        transition: !before ? 'appear' : !after ? 'disappear' : 'update',
        identity,
        mutations,
        previousRev: before?._rev as string | undefined,
        resultRev: transactionId,
        // The Studio listens with effectFormat=mendoza: a patch whose one operation (0) is the whole new value.
        effects: { apply: [0, withoutRev(after)], revert: [0, withoutRev(before)] },
        timestamp,
        visibility: 'transaction',
        transactionTotalEvents: changes.length,
        transactionCurrentEvent: index + 1,
      }
    })
  }

  return { documents, getDocuments, query, act }
}

function withoutRev(document: SeedDocument | null) {
  if (!document) return null
  const { _rev: _omitted, ...rest } = document
  return rest
}
