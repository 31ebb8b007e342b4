import { readFile } from 'node:fs/promises'
import type { ContentLake, MutationEvent, SentAction } from './content-lake'

/**
 * What the Sanity double answers the embedded Studio, path by path, from one content lake: a
 * logged-in administrator, the project around it, GROQ queries, documents by id, and the actions
 * an editor's edits and publishing send, which it records, applies and returns as the events the
 * listen streams carry (the Studio only counts an edit as saved, and only then publishes, when its
 * transaction comes back there). Mutations sent to /data/mutate (live-edit types; this site has
 * none) are recorded only. Sanity's module CDN (version check) and its font host are answered too.
 * What reaches Sanity's API that the double does not know is answered 404 and listed in `unknown`.
 * No browser here: studio-routes.ts carries these answers to and from the page.
 */
export type StudioRecord = {
  /** The actions the Studio sent (`sanity.action.document.publish`, ...), in order. */
  actions: SentAction[]
  /** The mutations the Studio sent to /data/mutate. */
  mutations: unknown[]
  /** Requests to Sanity's API the double does not answer: method and path. */
  unknown: string[]
}

export type StudioRequest = { method: string; url: URL; body?: string }

/**
 * An answer, and the events to send down the page's listen streams once it has been received.
 * `headers` are set only where the answer is not for the site's origin alone (the font host's).
 */
export type StudioAnswer = { status: number; contentType: string; body: string | Buffer; headers?: Record<string, string>; events?: MutationEvent[] }

export const TEST_USER = {
  id: 'pe2e-editor',
  name: 'Eda Editor',
  email: 'editor@example.com',
  role: 'administrator',
  roles: [{ name: 'administrator', title: 'Administrator' }],
}

const SANITY_API = /^https:\/\/([\w-]+\.)?api\.sanity\.io\//
const SANITY_CDN = 'https://sanity-cdn.com/'
const SANITY_FONTS = 'https://design-system-static.sanity.io/'
const FONT = 'node_modules/@fontsource/geist-sans/files/geist-sans-latin-400-normal.woff2'

/**
 * What the Studio asks about the project and the signed-in user beyond content, answered as for an
 * administrator of a project on a plan with no extras: its settings, grants, no scheduled
 * publishing, no upsell offers, no help links, no history, telemetry declined, feedback taken.
 */
const PROJECT_ANSWERS: [RegExp, (method: string, path: string) => unknown][] = [
  [/^\/users\/me$/, () => TEST_USER],
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

const json = (body: unknown, status = 200): StudioAnswer => ({ status, contentType: 'application/json', body: JSON.stringify(body) })

/** The Studio's answers over `lake`, recording into `record`; `sanityVersion` answers the version check (no "update available"). */
export function studioAnswers(lake: ContentLake, record: StudioRecord, { sanityVersion }: { sanityVersion: string }) {
  let transactions = 0
  const transaction = () => `studio-double-${++transactions}`

  const api = async ({ method, url, body }: StudioRequest): Promise<StudioAnswer> => {
    const path = url.pathname.replace(/^\/v[\w.-]+/, '')
    const answer = PROJECT_ANSWERS.find(([pattern]) => pattern.test(path))
    if (answer) return json(answer[1](method, path))
    if (/^\/data\/query\/[\w-]+$/.test(path)) {
      try {
        return json({ ms: 1, ...(await lake.query(url, method === 'POST' ? (body ?? '') : undefined)) })
      } catch (error) {
        record.unknown.push(`query the double cannot evaluate: ${(error as Error).message}`)
        return json({ error: { description: (error as Error).message, type: 'queryParseError' } }, 400)
      }
    }
    const doc = /^\/data\/doc\/[\w-]+\/(.+)$/.exec(path)
    if (doc) return json(await lake.getDocuments(decodeURIComponent(doc[1]!).split(',')))
    // A document's transactions (NDJSON): none beyond the dataset file.
    if (/^\/data\/history\/[\w-]+\/transactions\//.test(path)) return { status: 200, contentType: 'application/x-ndjson', body: '' }
    if (/^\/data\/actions\/[\w-]+$/.test(path)) {
      const sent = JSON.parse(body ?? '{}') as { actions: SentAction[]; transactionId?: string }
      record.actions.push(...sent.actions)
      const transactionId = sent.transactionId ?? transaction()
      const events = await lake.act(sent.actions, transactionId, TEST_USER.id).catch((error: Error) => {
        record.unknown.push(`an action the double cannot apply: ${error.message}`)
        return []
      })
      return { ...json({ transactionId }), events }
    }
    if (/^\/data\/mutate\/[\w-]+$/.test(path)) {
      record.mutations.push(...(JSON.parse(body ?? '{}') as { mutations: unknown[] }).mutations)
      return json({ transactionId: transaction(), results: [] })
    }
    record.unknown.push(`${method} ${path}`)
    return json({ error: { description: 'Not in the Studio test double' } }, 404)
  }

  /** The answer to a request for Sanity's API, its module CDN or its font host; undefined for any other address. */
  return async (request: StudioRequest): Promise<StudioAnswer | undefined> => {
    if (SANITY_API.test(request.url.href)) return api(request)
    if (request.url.href.startsWith(SANITY_CDN)) return json({ latest: sanityVersion, packageVersion: sanityVersion })
    if (request.url.href.startsWith(SANITY_FONTS))
      return { status: 200, contentType: 'font/woff2', headers: { 'access-control-allow-origin': '*' }, body: await readFile(FONT) }
    return undefined
  }
}
