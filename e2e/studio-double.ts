import { readFile } from 'node:fs/promises'
import type { BrowserContext, Request, Route } from '@playwright/test'
import { Mutation } from '@sanity/mutator'
import { evaluateQuery, readSeedDataset, type SeedDocument } from '../sanity/seed/dataset'
import { applyPerspective, queryRequest } from '../tools/sanity-standin/sanity-standin'

/**
 * A test double for everything the embedded Studio asks of Sanity, answered in the browser context
 * from an NDJSON dataset (the seed plus the stand-in's drafts), so the Studio runs with no network:
 * a logged-in user, GROQ queries (groq-js, the stand-in's perspectives), documents by id, and the
 * actions an editor's edits and publishing send, which it records, applies (@sanity/mutator, the
 * Studio's own) and echoes on the listen streams as the Content Lake does: the Studio only counts
 * an edit as saved, and only then publishes, when its transaction comes back there. Mutations sent
 * to /data/mutate (live-edit types; this site has none) are recorded only. Sanity's module CDN (version check) and
 * its font host are answered too. Whatever else leaves the machine is refused and listed in
 * `offline`; what reaches Sanity's API that the double does not know is answered 404 and listed in
 * `unknown`.
 *
 * Listen streams (`/data/listen/`) are not network here: a route can only answer with a whole
 * body, and a stream that ends makes the Studio reconnect and then warn; a local server would need
 * its address in the Studio's policy, which is what the test checks. So they are answered in the
 * page (HOLD_LISTEN_STREAMS_OPEN), the one thing this double does not answer on the network.
 */
export type SentAction = { actionType: string; draftId?: string; publishedId?: string; [key: string]: unknown }

export type StudioDouble = {
  /** The actions the Studio sent (`sanity.action.document.publish`, ...), in order. */
  actions: SentAction[]
  /** The mutations the Studio sent to /data/mutate. */
  mutations: unknown[]
  /** Requests to Sanity's API the double does not answer: method and path. */
  unknown: string[]
  /** Requests that would have left the machine and were refused. */
  offline: string[]
}

export const TEST_USER = {
  id: 'pe2e-editor',
  name: 'Eda Editor',
  email: 'editor@example.com',
  role: 'administrator',
  roles: [{ name: 'administrator', title: 'Administrator' }],
}

const SANITY_API = /^https:\/\/([\w-]+\.)?api\.sanity\.io\//
const SANITY_SOCKET = /^wss:\/\/([\w-]+\.)?api\.sanity\.io\//
const FONT = 'node_modules/@fontsource/geist-sans/files/geist-sans-latin-400-normal.woff2'

/**
 * Answers Sanity's listen URLs in the page (see above): the Studio's client reads them with fetch
 * (an EventSource polyfill, for its headers), so fetch gets a stream that says "welcome" and stays
 * open, carrying only the double's echoes (`window.studioDoubleListen`). Plain JavaScript in a
 * string: it runs in the page before the page's own scripts.
 */
const HOLD_LISTEN_STREAMS_OPEN = `(() => {
  const nativeFetch = window.fetch
  const open = new Set()
  const encoder = new TextEncoder()
  const send = (stream, name, data) => stream.enqueue(encoder.encode('event: ' + name + '\\ndata: ' + JSON.stringify(data) + '\\n\\n'))
  // The client reconnects after 45 s without a byte; the Content Lake keeps a stream alive the same way.
  setInterval(() => {
    for (const stream of open) stream.enqueue(encoder.encode(': keep-alive\\n\\n'))
  }, 10000)
  window.studioDoubleListen = (events) => {
    for (const stream of open) for (const event of events) send(stream, 'mutation', event)
  }
  window.fetch = function (input, init) {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (!/api\\.sanity\\.io\\/.*\\/data\\/listen\\//.test(url)) return nativeFetch.apply(this, arguments)
    let stream
    const body = new ReadableStream({
      start(controller) {
        stream = controller
        open.add(controller)
        send(controller, 'welcome', { listenerName: 'studio-double' })
      },
      cancel() {
        open.delete(stream)
      },
    })
    const signal = (init && init.signal) || (input instanceof Request ? input.signal : undefined)
    if (signal) signal.addEventListener('abort', () => open.delete(stream))
    return Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }))
  }
})()`

/**
 * What the Studio asks about the project and the signed-in user beyond content, answered as for an
 * administrator of a project on a plan with no extras: its settings, grants, no scheduled
 * publishing, no upsell offers, no help links, no history, telemetry declined, feedback taken.
 */
const PROJECT_ANSWERS: [RegExp, (method: string, path: string) => unknown][] = [
  [
    /^\/projects\/[\w-]+$/,
    () => ({
      id: 'standin',
      displayName: 'Stand-in',
      studioHost: null,
      isBlocked: false,
      isDisabled: false,
      metadata: {},
      members: [{ id: TEST_USER.id, role: 'administrator', roles: TEST_USER.roles, isRobot: false, isCurrentUser: true }],
    }),
  ],
  [/^\/projects\/[\w-]+\/datasets$/, () => [{ name: 'production', aclMode: 'public' }]],
  [/^\/projects\/[\w-]+\/datasets\/[\w-]+\/acl$/, () => [{ filter: '_id in path("**")', permissions: ['history', 'read', 'update', 'create'] }]],
  [/^\/projects\/[\w-]+\/grants$/, () => ({ 'sanity.project': [], 'sanity.project.members': [] })],
  [/^\/projects\/[\w-]+\/user-applications$/, () => []],
  [/^\/features$/, () => []],
  [/^\/(data\/)?ping(\/[\w-]+)?$/, () => 'PONG'],
  [/^\/help$/, () => ({})],
  [/^\/journey\//, () => null],
  // A document's history: none beyond the dataset file.
  [/^\/data\/history\/[\w-]+\/events\/documents\//, () => ({ events: {}, nextCursor: '' })],
  [/^\/schedules\//, () => ({ schedules: [] })],
  [/^\/intake\/telemetry-status$/, () => ({ status: 'denied' })],
  // The Sentry tunnel of the Studio's feedback form, which its Sentry client calls as it starts.
  [/^\/intake\/feedback$/, () => ({})],
  [
    /^\/users\/me\/keyvalue(\/.*)?$/,
    (method, path) =>
      method === 'GET'
        ? decodeURIComponent(path.split('/')[4] ?? '')
            .split(',')
            .map((key) => ({ key, value: null }))
        : [],
  ],
]

/** `extraDocuments`: documents the Studio should see beyond the dataset file (the site's build does not). */
export async function installStudioDouble(
  context: BrowserContext,
  {
    datasetPath,
    extraDocuments = [],
    siteOrigin,
    sanityVersion,
  }: { datasetPath: string; extraDocuments?: SeedDocument[]; siteOrigin: string; sanityVersion: string },
): Promise<StudioDouble> {
  const double: StudioDouble = { actions: [], mutations: [], unknown: [], offline: [] }
  const cors = { 'access-control-allow-origin': siteOrigin, 'access-control-allow-credentials': 'true' }
  const json = (route: Route, body: unknown, status = 200) =>
    route.fulfill({ status, contentType: 'application/json', headers: cors, body: JSON.stringify(body) })
  let transactions = 0
  const transaction = () => `studio-double-${++transactions}`

  await context.addInitScript(HOLD_LISTEN_STREAMS_OPEN)
  // Presence and the like (Sanity's socket): held open and silent, as for an editor alone in the Studio.
  await context.routeWebSocket(SANITY_SOCKET, () => {})

  // Registered first, so tried last: anything not answered below never leaves the machine.
  await context.route(
    (url) => url.hostname !== 'localhost' && url.hostname !== '127.0.0.1',
    (route) => {
      double.offline.push(`${route.request().method()} ${route.request().url()}`)
      return route.abort('internetdisconnected')
    },
  )
  await context.route('https://sanity-cdn.com/**', (route) => json(route, { latest: sanityVersion, packageVersion: sanityVersion }))
  await context.route('https://design-system-static.sanity.io/**', async (route) =>
    route.fulfill({ status: 200, contentType: 'font/woff2', headers: { 'access-control-allow-origin': '*' }, body: await readFile(FONT) }),
  )
  // What the Studio has written, over the dataset file: a document, or null once deleted.
  const written = new Map<string, SeedDocument | null>()
  const dataset = async () => {
    const documents = [...(await readSeedDataset(datasetPath)), ...extraDocuments].map((document) => ({ _rev: 'seed', ...document }))
    const ids = new Set(documents.map((document) => document._id))
    return [
      ...documents.map((document) => (written.has(document._id) ? written.get(document._id)! : document)),
      ...[...written].filter(([id]) => !ids.has(id)).map(([, document]) => document),
    ].filter((document): document is SeedDocument => document !== null)
  }

  /** Applies one transaction and sends its events down every listen stream of the page. */
  const commit = async (request: Request, transactionId: string, changes: { id: string; mutations: Record<string, unknown>[] }[]) => {
    const byId = new Map((await dataset()).map((document) => [document._id, document]))
    const events = changes.map(({ id, mutations: sent }, index) => {
      const before = byId.get(id) ?? null
      // An edit of a document with no draft yet first makes the draft from the published document, as
      // the Actions API does; the Studio applies a mutation to a missing document only if it creates one.
      const published = id.startsWith('drafts.') && !before ? byId.get(id.slice('drafts.'.length)) : undefined
      const mutations = published && 'patch' in sent[0]! ? [{ createIfNotExists: { ...published, _id: id } }, ...sent] : sent
      const after = new Mutation({ mutations: structuredClone(mutations), transactionId, resultRev: transactionId, timestamp: new Date().toISOString() }).apply(
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
        identity: TEST_USER.id,
        mutations,
        previousRev: before?._rev,
        resultRev: transactionId,
        // The Studio listens with effectFormat=mendoza: a patch whose one operation (0) is the whole new value.
        effects: { apply: [0, withoutRev(after)], revert: [0, withoutRev(before)] },
        timestamp: new Date().toISOString(),
        visibility: 'transaction',
        transactionTotalEvents: changes.length,
        transactionCurrentEvent: index + 1,
      }
    })
    await request
      .frame()
      .page()
      .evaluate((events) => (window as unknown as { studioDoubleListen: (events: object[]) => void }).studioDoubleListen(events), events)
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
      const draft = (await dataset()).find((document) => document._id === draftId)
      return [
        { id: publishedId!, mutations: [{ createOrReplace: { ...draft, _id: publishedId } }] },
        { id: draftId!, mutations: [{ delete: { id: draftId } }] },
      ]
    }
    return []
  }

  await context.route(SANITY_API, async (route) => {
    const request = route.request()
    const url = new URL(request.url())
    const path = url.pathname.replace(/^\/v[\w.-]+/, '')
    if (path === '/users/me') return json(route, TEST_USER)
    const answer = PROJECT_ANSWERS.find(([pattern]) => pattern.test(path))
    if (answer) return json(route, answer[1](request.method(), path))
    const query = /^\/data\/query\/[\w-]+$/.exec(path)
    if (query) {
      try {
        return await json(route, { ms: 1, ...(await answerQuery(request, url, await dataset())) })
      } catch (error) {
        double.unknown.push(`query the double cannot evaluate: ${(error as Error).message}`)
        return json(route, { error: { description: (error as Error).message, type: 'queryParseError' } }, 400)
      }
    }
    const doc = /^\/data\/doc\/[\w-]+\/(.+)$/.exec(path)
    if (doc) {
      const ids = decodeURIComponent(doc[1]!).split(',')
      const byId = new Map((await dataset()).map((document) => [document._id, document]))
      return json(route, {
        documents: ids.flatMap((id) => byId.get(id) ?? []),
        omitted: ids.filter((id) => !byId.has(id)).map((id) => ({ id, reason: 'existence' })),
      })
    }
    // A document's transactions (NDJSON): none beyond the dataset file.
    if (/^\/data\/history\/[\w-]+\/transactions\//.test(path))
      return route.fulfill({ status: 200, contentType: 'application/x-ndjson', headers: cors, body: '' })
    if (/^\/data\/actions\/[\w-]+$/.test(path)) {
      const body = request.postDataJSON() as { actions: SentAction[]; transactionId?: string }
      double.actions.push(...body.actions)
      const transactionId = body.transactionId ?? transaction()
      // One event per document per transaction, as the Content Lake sends: a transaction of several
      // edits to one draft (a slug's setIfMissing, then its text) is one change of that draft.
      const changes = [
        ...(await Promise.all(body.actions.map(asMutations)))
          .flat()
          .reduce((byId, { id, mutations }) => byId.set(id, [...(byId.get(id) ?? []), ...mutations]), new Map<string, Record<string, unknown>[]>()),
      ].map(([id, mutations]) => ({ id, mutations }))
      await json(route, { transactionId })
      return commit(request, transactionId, changes).catch((error: Error) => double.unknown.push(`an action the double cannot apply: ${error.message}`))
    }
    if (/^\/data\/mutate\/[\w-]+$/.test(path)) {
      const body = request.postDataJSON() as { mutations: unknown[] }
      double.mutations.push(...body.mutations)
      return json(route, { transactionId: transaction(), results: [] })
    }
    double.unknown.push(`${request.method()} ${path}`)
    return json(route, { error: { description: 'Not in the Studio test double' } }, 404)
  })
  return double
}

function withoutRev(document: SeedDocument | null) {
  if (!document) return null
  const { _rev: _omitted, ...rest } = document
  return rest
}

async function answerQuery(request: Request, url: URL, documents: SeedDocument[]) {
  const { query, params } = queryRequest(url, request.method() === 'POST' ? (request.postData() ?? '') : undefined)
  // The Studio reads drafts as `drafts` or `previewDrafts`; everything else as the stand-in does.
  const perspective = url.searchParams.get('perspective')?.split(',').includes('drafts') ? 'drafts' : url.searchParams.get('perspective')
  // groq-js slices only by literal numbers (the Studio's list pages slice by parameters) and has no
  // text::query, which a list not being searched asks only to match everything ("*").
  const literal = query
    .replace(/\$(\w+)/g, (name, key: string) => (typeof params[key] === 'number' ? String(params[key]) : name))
    .replace(/\[@, _id\] match text::query\(\$__query\)/g, (search) => (params.__query === '*' ? 'true' : search))
  return { query, result: await evaluateQuery(applyPerspective(documents, perspective), literal, params) }
}
