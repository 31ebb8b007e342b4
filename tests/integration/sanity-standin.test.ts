import { copyFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openContentLake } from '@/tools/sanity-standin/content-lake'
import { startSanityStandIn, type SanityStandIn } from '@/tools/sanity-standin/sanity-standin'
import { studioAnswers, type StudioRecord } from '@/tools/sanity-standin/studio-answers'

// One content lake behind both front ends of the Sanity double: what the Studio writes, the site's query API reads.
let dir: string
let standIn: SanityStandIn
const record: StudioRecord = { actions: [], mutations: [], unknown: [] }
let studio: ReturnType<typeof studioAnswers>

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sanity-double-'))
  const datasetPath = path.join(dir, 'dataset.ndjson')
  await copyFile('sanity/seed/production.ndjson', datasetPath)
  const lake = openContentLake({ datasetPath })
  standIn = await startSanityStandIn({ lake })
  studio = studioAnswers(lake, record, { sanityVersion: '0.0.0' })
})
afterAll(async () => {
  await standIn.close()
  await rm(dir, { recursive: true, force: true })
})

const API = 'https://standin.api.sanity.io/v2025-02-19'

/** The site's read of a page's title through the HTTP front end, in `perspective`. */
async function siteTitle(id: string, perspective?: string) {
  const url = new URL(`${standIn.url}/v2025-02-19/data/query/production`)
  url.searchParams.set('query', '*[_id == $id][0].title')
  url.searchParams.set('$id', JSON.stringify(id))
  if (perspective) url.searchParams.set('perspective', perspective)
  const response = await fetch(url)
  return { status: response.status, body: (await response.json()) as { result?: unknown; error?: { type?: string } } }
}

/** The Studio's request through its front end (no browser: the answers studio-routes.ts fulfils). */
async function ask(method: string, apiPath: string, body?: object) {
  const answer = await studio({ method, url: new URL(`${API}${apiPath}`), body: body && JSON.stringify(body) })
  return { ...answer!, json: JSON.parse(String(answer!.body)) as Record<string, unknown> }
}

describe('the Sanity double: one content lake, the site’s HTTP front end and the Studio’s', () => {
  it('answers a query published-only, and with the drafts perspective, drafts over their published documents', async () => {
    const edit = await ask('POST', '/data/actions/production', {
      actions: [
        {
          actionType: 'sanity.action.document.edit',
          draftId: 'drafts.page-careers',
          publishedId: 'page-careers',
          patch: { set: { title: 'Careers, drafted' } },
        },
      ],
    })
    // The first edit makes the draft from the published document, and the listen stream says it appeared.
    expect(edit.events?.map(({ documentId, transition }) => [documentId, transition])).toEqual([['drafts.page-careers', 'appear']])
    expect(await siteTitle('page-careers')).toEqual({ status: 200, body: expect.objectContaining({ result: 'Careers' }) })
    expect((await siteTitle('page-careers', 'drafts')).body.result).toBe('Careers, drafted')
    // The Studio's own query (POST, perspective list) reads the same draft.
    const studioQuery = await ask('POST', '/data/query/production?perspective=drafts,published', {
      query: '*[_id == $id][0].title',
      params: { id: 'page-careers' },
    })
    expect(studioQuery.json.result).toBe('Careers, drafted')
  })

  it('applies a publish the Studio sends, which the site’s query API then answers', async () => {
    const publish = await ask('POST', '/data/actions/production', {
      transactionId: 'tx-publish',
      actions: [{ actionType: 'sanity.action.document.publish', draftId: 'drafts.page-careers', publishedId: 'page-careers' }],
    })
    expect(publish.json).toEqual({ transactionId: 'tx-publish' })
    expect(publish.events?.map(({ documentId, transition, resultRev }) => [documentId, transition, resultRev])).toEqual([
      ['page-careers', 'update', 'tx-publish'],
      ['drafts.page-careers', 'disappear', 'tx-publish'],
    ])
    expect((await siteTitle('page-careers')).body.result).toBe('Careers, drafted')
    expect((await siteTitle('drafts.page-careers', 'raw')).body.result).toBeNull()
    expect(record.actions.map(({ actionType }) => actionType)).toEqual(['sanity.action.document.edit', 'sanity.action.document.publish'])
  })

  it('answers documents by id, each with its revision, and names those missing', async () => {
    const { json } = await ask('GET', `/data/doc/production/${encodeURIComponent('page-careers,landingPage,drafts.page-careers')}`)
    expect((json.documents as { _id: string; _rev: string }[]).map(({ _id, _rev }) => [_id, _rev])).toEqual([
      ['page-careers', 'tx-publish'],
      ['landingPage', 'seed'],
    ])
    expect(json.omitted).toEqual([{ id: 'drafts.page-careers', reason: 'existence' }])
  })

  it('plays an outage on the site’s front end, and recovers', async () => {
    standIn.setFailing(true)
    expect(await siteTitle('page-careers')).toEqual({ status: 503, body: { error: expect.objectContaining({ type: 'serviceUnavailable' }) } })
    standIn.setFailing(false)
    expect((await siteTitle('page-careers')).status).toBe(200)
  })

  it('answers a path it does not know 404 on both front ends, and the Studio’s is listed as unknown', async () => {
    expect((await fetch(`${standIn.url}/v2025-02-19/data/export/production`)).status).toBe(404)
    const studioAnswer = await ask('GET', '/data/export/production')
    expect(studioAnswer.status).toBe(404)
    expect(record.unknown).toEqual(['GET /data/export/production'])
    // Not Sanity at all: the Studio's front end leaves it to the routes, which refuse it as offline.
    expect(await studio({ method: 'GET', url: new URL('https://example.com/') })).toBeUndefined()
  })
})
