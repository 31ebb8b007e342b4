import type { Page } from '@playwright/test'
import { writeWaitlistCsv, type OwnerClient } from '../tools/owner/owner'
import { editorsTasksExample } from '../tools/content/experiment-example'
import { admittedPerson, startOwnerConsole } from './admission'
import { axeViolations } from './a11y'
import { expect, test } from './fixtures'
import { confirmLinkIn, emailTo } from './inbox'
import { publishLocally } from './local-publish'
import { reflowOffenders } from './reflow'
import { copy, withValues as fill } from './seed-copy'
import { owner, supabaseUrl } from './waitlist-rows'
import { webhookEvents } from './webhooks'
import { LOCAL_ANON_KEY } from '../tools/supabase-local/keys'

// The research panel, end to end: the editors' guide's tasks published through `content:publish`,
// then a person who signs up in German answers one on their own page (a too-short answer refused
// in their words, then moving up by its places), a second try changes nothing, a founder revokes it
// in the console and the places go, the person joins the leaderboard under their initials, and
// leaves the list and disappears from it. An admission spec (playwright.config.ts): it moves a
// person up the line, which the other specs read.

const example = editorsTasksExample()
const de = copy.doc('waitlistPage-de', 'waitlistPage')
const task = example.tasks[0]!
const inGerman = (texts: { language: string; text: string }[]) => texts.find((entry) => entry.language === 'de')!.text
const stamp = Date.now().toString(36)
const person = admittedPerson('Forscherin', stamp)
// Their initials, as the database makes them from "Forscherin Admitted".
const initials = 'F. A.' // not seed copy: made from the name this spec signs up with
const ownerClient = owner as unknown as OwnerClient

test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  test.setTimeout(120_000)
  expect(await publishLocally([example])).toMatch(/Revalidated waitlistTasks/)
})
test.afterAll(async () => {
  test.setTimeout(120_000)
  // The seed's own: no tasks.
  await publishLocally([{ _id: example._id, _type: example._type, tasks: [] }])
})

const placesOf = async (email: string) => {
  const { data, error } = await owner.from('waitlist').select('reward_places').eq('email', email).single()
  if (error) throw new Error(error.message)
  return (data as { reward_places: number }).reward_places
}

/** A template's text with each placeholder standing for any number. */
const anyNumbers = (template: string) => new RegExp(template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[a-z]+\}/g, '\\d+'))

async function ownPage(page: Page, link: string) {
  await page.goto('/')
  await page.goto(link)
  await expect(page.locator('#place-title')).toBeVisible()
}

/** The leaderboard in German, read again until `expected` holds (it refreshes every LEADERBOARD_REFRESH_SECONDS). */
async function boardShows(page: Page, expected: (names: string[]) => boolean) {
  await expect
    .poll(
      async () => {
        await page.goto('/de/waitlist/leaderboard')
        return expected(await page.locator('tbody tr td:nth-child(2)').allInnerTexts())
      },
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe(true)
}

let link = ''

test('a confirmed person answers a task in German and moves up by its places, once', async ({ page, request }) => {
  await page.goto('/de/waitlist')
  await page.locator('#waitlist-name').fill(person.name)
  await page.locator('#waitlist-email').fill(person.email)
  await page.locator('form[aria-labelledby="waitlist-form-title"] button[type="submit"]').click()
  await expect(page.locator('#confirmation-title')).toBeVisible()
  link = confirmLinkIn(await emailTo(person.email, { subject: de.email.subject }))
  await page.goto(link)
  await page.getByRole('button', { name: de.confirmPage.confirmLabel }).click()
  await expect(page.getByRole('heading', { level: 1, name: de.confirmPage.confirmedTitle })).toBeVisible()

  const form = page.getByRole('form', { name: inGerman(task.title) })
  await expect(page.getByRole('heading', { level: 3, name: de.tasksPanel.title })).toBeVisible()
  await expect(form.getByText(fill(de.tasksPanel.placesLabel, { places: task.places }))).toBeVisible()
  const [method, hardest] = task.questions
  await form.getByLabel(inGerman(method!.options![1]!.label)).check()
  const text = form.getByLabel(inGerman(hardest!.label))
  // Two words: the page says so, in German, and sends nothing.
  await text.fill('zu wenig') // not seed copy: what the person types
  await form.getByRole('button', { name: de.tasksPanel.submitLabel }).click()
  await expect(form.getByText(fill(de.tasksPanel.fewWordsError, { n: 3 }))).toBeVisible()
  await expect(text).toBeFocused()
  expect(await placesOf(person.email)).toBe(0)
  await text.fill('Die richtigen Leute zu finden') // not seed copy: what the person types
  await form.getByRole('button', { name: de.tasksPanel.submitLabel }).click()
  const answered = page.locator(`[data-task="${task.key}"]`)
  await expect(answered.getByRole('status')).toHaveText(anyNumbers(fill(de.tasksPanel.doneText, { places: task.places })))
  expect(await placesOf(person.email)).toBe(task.places)
  expect(await axeViolations(page)).toEqual([])

  // A second try with the same link, straight at the database: nothing changes.
  const token = new URL(link).hash.replace('#token=', '')
  const again = await request.post(`${supabaseUrl}/rest/v1/rpc/waitlist_complete_task`, {
    headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' },
    data: { token, task: task.key, answers: { method: 'interviews', hardest: 'Noch ein ganz anderer Versuch' } },
  })
  expect(await again.json()).toEqual({ status: 'done' })
  expect(await placesOf(person.email)).toBe(task.places)
  await ownPage(page, link)
  await expect(answered).toContainText(de.tasksPanel.completedLabel)
  await expect(answered.getByRole('button')).toHaveCount(0)
  await page.setViewportSize({ width: 320, height: 800 })
  expect(await reflowOffenders(page, 320)).toEqual([])
  await page.setViewportSize({ width: 1280, height: 720 })

  // The founders' webhook, signed: the task, its places and the answers in the words the person saw.
  await expect
    .poll(async () => (await webhookEvents('task.completed')).filter((event) => event.data.email === person.email).length, { timeout: 20_000 })
    .toBe(1)
  const [event] = (await webhookEvents('task.completed')).filter((candidate) => candidate.data.email === person.email)
  expect(event!.data).toMatchObject({
    task: task.key,
    places: task.places,
    answers: { hardest: { question: inGerman(hardest!.label), text: 'Die richtigen Leute zu finden' } },
  })
})

test('a founder revokes the answer in the console, once: the places come back off; the export has the task’s column', async ({ page }) => {
  // The export, before the revoke: the task's column holds the answers.
  let csv = ''
  await writeWaitlistCsv(ownerClient, { write: async (chunk) => void (csv += chunk), end: async () => {} })
  const [header, ...lines] = csv.trim().split(/\r?\n/)
  const column = header!.split(',').indexOf(`task_${task.key}`)
  expect(column).toBeGreaterThan(0)
  expect(lines.find((line) => line.includes(person.email))).toContain('hardest: Die richtigen Leute zu finden')

  const ownerConsole = await startOwnerConsole()
  try {
    await page.goto(ownerConsole.url.href)
    const revoke = page.getByRole('button', { name: `Revoke ${task.key} of ${person.email}` }) // not seed copy: the console's words
    await revoke.click()
    await expect(page.getByRole('status')).toContainText(`Revoked ${task.key}`) // not seed copy: the console's words
    await expect(revoke).toHaveCount(0)
    expect(await axeViolations(page)).toEqual([])
  } finally {
    ownerConsole.stop()
  }
  expect(await placesOf(person.email)).toBe(0)
  await ownPage(page, link)
  await expect(page.locator(`[data-task="${task.key}"]`)).toContainText(de.tasksPanel.revokedLabel)
})

test('the person joins the leaderboard under their initials, and is gone from it once they leave the list', async ({ page }) => {
  await ownPage(page, link)
  await page.getByRole('button', { name: de.tasksPanel.boardJoinLabel }).click()
  await expect(page.getByTestId('board-state')).toHaveText(anyNumbers(fill(de.tasksPanel.boardOnText, { name: initials })))
  await boardShows(page, (names) => names.includes(initials))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(de.leaderboardPage.title)
  // Scraped for addresses: none, and no name but the ones chosen.
  expect(await page.locator('main').innerText()).not.toContain('@')
  expect(await page.locator('main').innerText()).not.toContain(person.name)
  await page.setViewportSize({ width: 320, height: 800 })
  expect(await reflowOffenders(page, 320)).toEqual([])
  await page.setViewportSize({ width: 1280, height: 720 })
  expect(await axeViolations(page)).toEqual([])

  // A link preview of their referral link shows their own share image, naming them as on the board;
  // a person's browser gets the static page, and its image names nobody.
  const { data } = await owner.from('waitlist').select('referral_code').eq('email', person.email).single()
  const code = (data as { referral_code: string }).referral_code
  const ogImage = async (userAgent?: string) => {
    const html = await (await page.request.get(`/de/waitlist?ref=${code}`, userAgent ? { headers: { 'user-agent': userAgent } } : {})).text()
    return /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1]
  }
  expect(await ogImage('Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)')).toMatch(new RegExp(`/og/de/ref/${code}$`))
  expect(await ogImage()).toMatch(/\/og\/de\/waitlist$/)
  const named = await page.request.get(`/og/de/ref/${code}`)
  const plain = await page.request.get('/og/de/waitlist')
  expect(named.headers()['content-type']).toBe('image/png')
  expect(Buffer.compare(await named.body(), await plain.body())).not.toBe(0)

  // Static: visits within the refresh are answered from the cache, the database not asked.
  await expect
    .poll(async () => (await page.request.get('/de/waitlist/leaderboard')).headers()['x-nextjs-cache'], { timeout: 10_000, intervals: [250] })
    .toBe('HIT')

  // Leaving the list (the own page's delete, after its second press).
  await ownPage(page, link)
  await page.getByRole('button', { name: de.placePanel.deleteLabel }).click()
  await page.getByRole('button', { name: de.placePanel.deleteConfirmLabel }).click()
  await expect(page.getByRole('heading', { level: 1, name: de.placePanel.deletedTitle })).toBeVisible()
  await boardShows(page, (names) => !names.includes(initials))
})
