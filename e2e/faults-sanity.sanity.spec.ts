import { readFile, writeFile } from 'node:fs/promises'
import { E2E_SANITY, e2eSanityEnv } from '../tools/test/e2e-env'
import { STANDIN_CONTROL_PATH } from '../tools/sanity-standin/sanity-standin'
import { sendRevalidationWebhook } from '../tools/local/local-webhook'
import type { APIRequestContext } from '@playwright/test'
import { expect, test } from './fixtures'
import { copy } from './seed-copy'

// The fault suite's Sanity row: Sanity's API fails while a publish is under way (the webhook has
// arrived, the pages it names are expired, and every read of the content fails). Visitors keep the
// last good page with 200, a new address is not invented, and once the API answers again the
// publish shows by itself, with no second webhook (the revalidation period retries the reads).
// Against the build whose content comes from the Sanity stand-in (tools/test/e2e.ts).

const standIn = `http://127.0.0.1:${E2E_SANITY.standInPort}`
const site = `http://localhost:${E2E_SANITY.sitePort}`
const secret = e2eSanityEnv().SANITY_REVALIDATE_SECRET!
const mainOf = (html: string) => html.match(/<main[\s\S]*<\/main>/)?.[0]

const setOutage = (failing: boolean) => fetch(`${standIn}${STANDIN_CONTROL_PATH}`, { method: 'POST', body: JSON.stringify({ failing }) })

async function editDataset(edit: (text: string) => string) {
  await writeFile(E2E_SANITY.datasetPath, edit(await readFile(E2E_SANITY.datasetPath, 'utf8')))
}

// Every render during the outage waits for the Sanity client's own retries (about 3 s).
test.describe.configure({ mode: 'serial', timeout: 90_000 })

/**
 * Until this server has rendered `path` itself, not only served the build's copy: a server that has
 * run for a while has (every page is rendered again after CONTENT_REVALIDATE_SECONDS when visited),
 * and its content layer then holds the last good answers (sanity/content/fetch.ts).
 */
async function renderedHere(request: APIRequestContext, path: string) {
  await expect.poll(async () => (await request.get(path)).headers()['x-nextjs-cache'], { timeout: 20_000, intervals: [250] }).toBe('HIT')
}

let original = ''
test.beforeAll(async () => {
  original = await readFile(E2E_SANITY.datasetPath, 'utf8')
})
// The next spec file reads the same server: the content goes back as it was, published, and shown.
test.afterEach(async ({ request }) => {
  await setOutage(false)
  await writeFile(E2E_SANITY.datasetPath, original)
  for (const change of [
    { _type: 'aboutPage', _id: 'aboutPage' },
    { _type: 'page', _id: 'page-careers' },
  ])
    expect((await sendRevalidationWebhook(site, secret, change)).status).toBe(200)
  const title = copy.section(copy.about, 'pageHeaderSection').title
  await expect.poll(async () => (await (await request.get('/about')).text()).includes(title), { timeout: 15_000, intervals: [250] }).toBe(true)
})

test('a changed page: visitors keep the last good page during the outage, and see the change by itself after it', async ({ request }) => {
  const title = copy.section(copy.about, 'pageHeaderSection').title
  const fresh = `About us, published during an outage ${Date.now()}`
  await renderedHere(request, '/about')
  const before = mainOf(await (await request.get('/about')).text())
  expect(before).toContain(title)
  await editDataset((text) => text.replace(`"title":${JSON.stringify(title)}`, `"title":${JSON.stringify(fresh)}`))
  await setOutage(true)
  // The publish arrives while every read fails: it is taken (200), the page is expired.
  const answer = await sendRevalidationWebhook(site, secret, { _type: 'aboutPage', _id: 'aboutPage' })
  expect(answer.status).toBe(200)
  // Past the revalidation period too: every request now tries to render afresh, and fails.
  await new Promise((resolve) => setTimeout(resolve, (E2E_SANITY.revalidateSeconds + 1) * 1000))
  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await request.get('/about')
    expect(response.status()).toBe(200)
    expect(mainOf(await response.text())).toBe(before)
  }
  const back = Date.now()
  await setOutage(false)
  await expect.poll(async () => (await (await request.get('/about')).text()).includes(fresh), { timeout: 15_000, intervals: [250] }).toBe(true)
  console.log(`[faults] the publish showed ${Date.now() - back} ms after Sanity answered again`)
})

test('a new page published during the outage: a 404 meanwhile, never an error; it appears by itself after it', async ({ request }) => {
  const slug = `outage-${Date.now().toString(36)}`
  const careers = original.split('\n').find((line) => line.includes('"_id":"page-careers"'))!
  const page = { ...JSON.parse(careers), _id: `page-${slug}`, title: 'Published during an outage', slug: { _type: 'slug', current: slug } }
  // A publish of a page expires what lists pages (the menus, the 404's links) on every page.
  for (const path of ['/', '/about', `/${slug}-never`]) await renderedHere(request, path)
  await editDataset((text) => `${text.trimEnd()}\n${JSON.stringify(page)}\n`)
  await setOutage(true)
  const answer = await sendRevalidationWebhook(site, secret, { _type: 'page', _id: page._id })
  expect(answer.status).toBe(200)
  for (let attempt = 0; attempt < 3; attempt++) {
    const response = await request.get(`/${slug}`)
    expect([404, 200]).toContain(response.status())
    if (response.status() === 200) expect(await response.text()).toContain('Published during an outage')
  }
  for (const path of ['/', '/about']) expect((await request.get(path)).status(), path).toBe(200)
  const back = Date.now()
  await setOutage(false)
  await expect.poll(async () => (await request.get(`/${slug}`)).status(), { timeout: 15_000, intervals: [250] }).toBe(200)
  expect(await (await request.get(`/${slug}`)).text()).toContain('Published during an outage')
  console.log(`[faults] the new page answered ${Date.now() - back} ms after Sanity answered again`)
})
