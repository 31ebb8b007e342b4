import type { BrowserContext } from '@playwright/test'
import type { SeedDocument } from '../../sanity/seed/dataset'
import { openContentLake, type ContentLake } from './content-lake'
import { studioAnswers, type StudioRecord } from './studio-answers'

/**
 * The Sanity double's front end for the embedded Studio: Playwright routes that carry every request
 * of a browser context to studio-answers.ts, so the Studio runs with no network. Whatever else
 * leaves the machine is refused and listed in `offline`.
 *
 * Listen streams (`/data/listen/`) are not network here: a route can only answer with a whole
 * body, and a stream that ends makes the Studio reconnect and then warn; a local server would need
 * its address in the Studio's policy, which is what the test checks. So they are answered in the
 * page (HOLD_LISTEN_STREAMS_OPEN), the one thing this double does not answer on the network.
 */
export type StudioDouble = StudioRecord & {
  /** Requests that would have left the machine and were refused. */
  offline: string[]
}

const SANITY_SOCKET = /^wss:\/\/([\w-]+\.)?api\.sanity\.io\//

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
 * `extraDocuments`: documents the Studio should see beyond the dataset file (the site's build, in
 * another process with its own lake over the same file, does not). `lake`, to share one with
 * another front end in the same process.
 */
export async function installStudioDouble(
  context: BrowserContext,
  {
    datasetPath,
    extraDocuments = [],
    lake = openContentLake({ datasetPath, extraDocuments }),
    siteOrigin,
    sanityVersion,
  }: { datasetPath: string; extraDocuments?: SeedDocument[]; lake?: ContentLake; siteOrigin: string; sanityVersion: string },
): Promise<StudioDouble> {
  const double: StudioDouble = { actions: [], mutations: [], unknown: [], offline: [] }
  const answer = studioAnswers(lake, double, { sanityVersion })
  const cors = { 'access-control-allow-origin': siteOrigin, 'access-control-allow-credentials': 'true' }

  await context.addInitScript(HOLD_LISTEN_STREAMS_OPEN)
  // Presence and the like (Sanity's socket): held open and silent, as for an editor alone in the Studio.
  await context.routeWebSocket(SANITY_SOCKET, () => {})
  // The site itself is not routed; anything else not answered never leaves the machine.
  const local = (url: URL) => url.hostname === 'localhost' || url.hostname === '127.0.0.1'
  await context.route(
    (url) => !local(url),
    async (route) => {
      const request = route.request()
      const answered = await answer({ method: request.method(), url: new URL(request.url()), body: request.postData() ?? undefined })
      if (!answered) {
        double.offline.push(`${request.method()} ${request.url()}`)
        return route.abort('internetdisconnected')
      }
      const { status, contentType, body, headers = cors, events } = answered
      await route.fulfill({ status, contentType, headers, body })
      if (events?.length)
        await request
          .frame()
          .page()
          .evaluate((events) => (window as unknown as { studioDoubleListen: (events: object[]) => void }).studioDoubleListen(events), events)
          .catch((error: Error) => double.unknown.push(`an action the double cannot apply: ${error.message}`))
    },
  )
  return double
}
