import { E2E } from '../tools/test/e2e-env'
import { expect, test } from './fixtures'
import { firefox, webkit, type Engine, type EngineSession } from './other-engines'
import { copy } from './seed-copy'
import { owner } from './waitlist-rows'

// The sign-up path in the two engines besides Chromium that people's browsers use: Gecko (Firefox)
// and WebKit (Safari), from Debian's packages (e2e/other-engines.ts drives them). One window per
// engine, kept across its checks: the home page, the phone menu, Try Demo, and a sign-up in each
// language. The rest of the suite runs in Chromium.
//
// Sign-ups: two per engine, four in all, from 127.0.0.1 like every other spec's (the suite's database
// allows one network any number: e2e/seed/confirmation.sql).

const site = `http://localhost:${E2E.sitePort}`
const nav = copy.settings.navigation
const header = 'header'
const menuButton = { role: 'button', name: nav.menuLabel, within: header } as const

const WAITLISTS = [
  { language: 'en', path: '/waitlist', page: copy.waitlist, person: 'Ada Engine' }, // not seed copy: a visitor's name
  { language: 'de', path: '/de/waitlist', page: copy.doc('waitlistPage-de', 'waitlistPage'), person: 'Grete Engine' },
] as const

// Each engine at a phone's width where it can: the header shows the phone menu below Tailwind's
// `lg` (1024 px) and puts Try Demo, Sign in and Start Free Trial into it below `md` (768 px)
// (components/site/header.tsx). Firefox takes a phone's 390 px. MiniBrowser's window is never
// narrower than about 447 CSS px, so WebKit gets 500 px: narrower than `md`, so the same menu.
const ENGINES: { engine: Engine; tag: string; width: number }[] = [
  { engine: firefox, tag: 'firefox', width: 390 },
  { engine: webkit, tag: 'webkit', width: 500 },
]

for (const { engine, tag, width } of ENGINES) {
  test.describe(`in ${engine.name}`, () => {
    test.describe.configure({ mode: 'serial' })
    let browser: EngineSession | undefined
    let startedAt = 0
    const opened = () => browser!

    test.beforeAll(async () => {
      // Long enough to install the engine on a fresh machine when the run did not start through
      // `npm run test:e2e` (which installs it before Playwright starts).
      test.setTimeout(600_000)
      startedAt = Date.now()
      browser = await engine.launch(site, width)
    })

    test.afterAll(async () => {
      if (!browser) return
      await browser.close()
      console.log(`${browser.version}: ${((Date.now() - startedAt) / 1000).toFixed(1)} s, start to close`)
    })

    test('the home page has one h1 and does not scroll sideways', async () => {
      await opened().open('/')
      const page = await opened().run(
        () => ({
          h1: document.querySelectorAll('h1').length,
          width: window.innerWidth,
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
        }),
        undefined,
      )
      expect(page.h1).toBe(1)
      // The width the comment above relies on.
      expect(page.width).toBeLessThan(768)
      expect(page.scrollWidth).toBeLessThanOrEqual(page.clientWidth)
    })

    test('the phone menu opens and holds the links and the actions', async () => {
      await opened().open('/')
      await opened().click(menuButton)
      await opened().waitFor({ role: 'button', name: copy.settings.labels.closeMenu, within: header })
      for (const link of [...nav.links, ...nav.resources]) await opened().waitFor({ role: 'link', name: link.label, within: header })
      await opened().waitFor({ role: 'link', name: nav.startTrialLabel, within: header })
      await opened().waitFor({ role: 'button', name: nav.tryDemoLabel, within: header })
    })

    test('Try Demo in the phone menu opens the demo', async () => {
      await opened().open('/')
      await opened().click(menuButton)
      await opened().click({ role: 'button', name: nav.tryDemoLabel, within: header })
      await opened().waitFor({ role: 'dialog', name: copy.settings.demoWidget.title })
    })

    for (const { language, path, page, person } of WAITLISTS) {
      test(`a sign-up on ${path} reaches the confirmation and the database`, async () => {
        const email = `${tag}.${language}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.org`
        await opened().open(path)
        await opened().type({ role: 'textbox', name: page.form.nameLabel }, person)
        await opened().type({ role: 'textbox', name: page.form.emailLabel }, email)
        // Sent at once: the form itself holds a sign-up until MIN_FILL_MS after it appeared.
        await opened().click({ role: 'button', name: page.form.submitLabel })
        await opened().waitFor({ role: 'heading', name: page.confirmation.title })
        const { data, error } = await owner.from('waitlist').select('name, email, language').eq('email', email)
        expect(error).toBeNull()
        expect(data).toEqual([{ name: person, email, language }])
      })
    }
  })
}
