import { admittedPerson, signUpAndConfirm, withOwnBrowser } from './admission'
import { axeViolations } from './a11y'
import { expect, test } from './fixtures'
import { emailsTo, emailTo, headersOf } from './inbox'
import { currentDocument, publishLocally } from './local-publish'
import { copy } from './seed-copy'
import { outboxSettled, statusOf } from './waitlist-rows'

// Updates by e-mail, as people and the founders meet it, through the real outbox into maildev: two
// people join and confirm, only one ticks the updates box; a post published with "E-mail it to
// subscribers" (npm run content:publish, the Studio's publish offline, with its signed webhook)
// reaches exactly that one, once, however often it is published; one click in that e-mail's
// List-Unsubscribe header stops updates and keeps the place; the next post reaches nobody. An
// admission spec: it runs after every other (playwright.config.ts), since it publishes posts.

const { email: words, placePanel, unsubscribePage: leave } = copy.waitlist
const stamp = Date.now().toString(36)
const [ann, ben] = [admittedPerson('Ann', stamp), admittedPerson('Ben', stamp)]
const links: Record<string, string> = {}

/** A real post, made from a seed post's words under an id and address of this run, to be e-mailed. */
async function newPost(id: string) {
  const seed = await currentDocument<{ title: string; excerpt: string } & Record<string, unknown>>('post-changelog-slack-threads')
  return { ...seed, _id: `${id}-${stamp}`, slug: { _type: 'slug', current: `${id}-${stamp}` }, isSample: false, emailToSubscribers: true }
}
const subjectOf = (post: { title: string }) => words.updateSubject.replace('{title}', post.title)

test.describe.configure({ mode: 'serial', timeout: 120_000 })

let first: Awaited<ReturnType<typeof newPost>>

test('a published post goes once to the person who ticked the box, and to nobody else', async ({ page, browser }) => {
  links[ann.email] = await signUpAndConfirm(page, { ...ann, updates: true })
  // Her page shows what she chose, as the database recorded it.
  await expect(page.getByRole('checkbox', { name: placePanel.updatesLabel })).toBeChecked()
  links[ben.email] = await withOwnBrowser(browser, (other) => signUpAndConfirm(other, ben))

  first = await newPost('updates-first') // not seed copy
  expect(await publishLocally([first])).toMatch(/E-mailed updates-first-\w+ to the \d+ people who asked for updates/) // not seed copy
  const mail = await emailTo(ann.email, { subject: subjectOf(first) })
  expect(mail.to).toEqual([{ address: ann.email, name: ann.name }])
  expect(mail.text).toContain(words.updateGreeting.replace('{name}', ann.name))
  expect(mail.text).toContain(first.excerpt)
  expect(mail.html).toContain(`href="http://localhost:${new URL(page.url()).port}/blog/${first.slug.current}"`)

  // Publishing it again (an edit, a second press) sends nothing more.
  expect(await publishLocally([{ ...first, excerpt: `${first.excerpt} (edited)` }])).toMatch(/was e-mailed when first published: nothing sent again/) // not seed copy
  await outboxSettled()
  // Time for a second e-mail to arrive, if one had been queued: the dispatcher runs every half second.
  await page.waitForTimeout(2000)
  expect(await emailsTo(ann.email, subjectOf(first))).toHaveLength(1)
  expect(await emailsTo(ben.email, subjectOf(first))).toHaveLength(0)
})

test('its one click stops updates only: the person keeps their place, and the next post reaches nobody', async ({ page, request }) => {
  const mail = await emailTo(ann.email, { subject: subjectOf(first) })
  // The visible link leads to a page that says what it does (stop updates), and asks first.
  const visible = /http:\/\/localhost:\d+\/waitlist\/unsubscribe#token=updates\.[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0]
  expect(visible, 'the visible link that stops updates').toBeDefined()
  await page.goto(visible!)
  await expect(page.getByRole('heading', { level: 1, name: leave.updatesTitle })).toBeVisible()
  await expect(page.getByRole('button', { name: leave.updatesButtonLabel })).toBeVisible()
  expect(await axeViolations(page)).toEqual([])

  // The mail program's one click (RFC 8058), from the header.
  const headers = await headersOf(mail)
  expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
  const header = /<(http:\/\/localhost:\d+\/api\/unsubscribe\?token=updates\.[A-Za-z0-9_-]{43})>/.exec(headers['list-unsubscribe'] ?? '')?.[1]
  expect(header, 'the List-Unsubscribe address').toBeDefined()
  const oneClick = await request.post(header!, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, data: 'List-Unsubscribe=One-Click' })
  expect(oneClick.status()).toBe(200)
  expect(await statusOf(ann.email)).toBe('confirmed')

  const second = await newPost('updates-second') // not seed copy
  second.title = `${second.title} (2)` // not seed copy
  expect(await publishLocally([second])).toMatch(/to the 0 people who asked for updates/) // not seed copy
  await outboxSettled()
  for (const someone of [ann, ben]) expect(await emailsTo(someone.email, subjectOf(second)), someone.email).toHaveLength(0)

  // Her page still shows her place, and updates off.
  await page.goto(links[ann.email]!)
  await expect(page.getByRole('heading', { level: 2, name: placePanel.title })).toBeVisible()
  await expect(page.getByRole('checkbox', { name: placePanel.updatesLabel })).not.toBeChecked()
})
