import { spawn } from 'node:child_process'
import puppeteer, { type ElementHandle } from 'puppeteer-core'
import { Builder, type WebElement } from 'selenium-webdriver'
import { CONSENT_STORAGE_KEY } from '../components/analytics/consent'
import { ensureOtherEngines, type OtherEngines } from '../tools/local/other-engines'
import { freePort, waitForPort } from '../tools/local/run'
import { until } from '../tools/local/prerender-watch'

// Firefox and WebKit for e2e/other-engines.spec.ts. Playwright's own builds of them cannot be
// downloaded here, and it drives no other build, so Debian's are driven by the tools that can:
// Firefox ESR by puppeteer-core over WebDriver BiDi, WebKitGTK's MiniBrowser by selenium-webdriver
// through WebKitGTK's WebDriver server. Both are wrapped in one small interface, and the checks are
// written once against it.

/** An element as a person finds it: by its role and its accessible name (whole, spaces collapsed). */
export type Target = {
  role: 'button' | 'link' | 'heading' | 'dialog' | 'textbox'
  name: string
  /** A CSS selector of the part of the page to look in (`header`, `form`). */
  within?: string
}

/** A browser window on the site, whichever engine draws it. */
export type EngineSession = {
  /** The engine and its version, e.g. "Firefox 153.8.0". */
  version: string
  /** Opens `path` of the site and waits for the page's load event. */
  open(path: string): Promise<void>
  /** Runs `fn` in the page with `arg` (both are serialised) and returns its result. */
  run<A, R>(fn: (arg: A) => R, arg: A): Promise<R>
  /** Waits until `target` is on screen (and, for a control, hydrated), and fails naming what the page says instead. */
  waitFor(target: Target): Promise<void>
  /** Clicks `target` with the engine's own pointer, once it is on screen and hydrated. */
  click(target: Target): Promise<void>
  /** Types `text` into `target` with the engine's own keyboard. */
  type(target: Target, text: string): Promise<void>
  close(): Promise<void>
}

/** An element in the page, for the engine's own pointer and keyboard. */
type Control = { click(): Promise<void>; type(text: string): Promise<void> }

/** What each engine's driver provides; `session` builds the rest on it. */
type Driver = {
  version: string
  open(url: string): Promise<void>
  run<A, R>(fn: (arg: A) => R, arg: A): Promise<R>
  /** The element `findTarget` finds for `target` now, or null. */
  find(target: Target): Promise<Control | null>
  close(): Promise<void>
}

export type Engine = {
  name: string
  /** Starts the engine on the site at `baseURL`, the window `width` CSS px wide (or as near as it goes). */
  launch(baseURL: string, width: number): Promise<EngineSession>
}

/**
 * In the page: the first element on screen with `target`'s role and name, or null. Buttons and
 * fields count only once React has hydrated them (before that a click does nothing). Runs
 * serialised in the page, so it names nothing outside itself.
 */
function findTarget(target: Target): Element | null {
  const roles: Record<Target['role'], string> = {
    button: 'button, [role="button"]',
    link: 'a[href]',
    heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
    dialog: 'dialog, [role="dialog"]',
    textbox: 'input, textarea',
  }
  const words = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()
  const nameOf = (el: Element) => {
    const ids = el.getAttribute('aria-labelledby')
    if (ids)
      return words(
        ids
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent)
          .join(' '),
      )
    const labels = (el as HTMLInputElement).labels
    return words(el.getAttribute('aria-label') ?? (labels?.length ? [...labels].map((label) => label.textContent).join(' ') : el.textContent))
  }
  const control = target.role === 'button' || target.role === 'textbox'
  // React keeps an element's props on it under this key once it has hydrated it.
  const hydrated = (el: Element) => Object.keys(el).some((key) => key.startsWith('__reactProps$'))
  const scope = target.within ? document.querySelector(target.within) : document
  const found = [...(scope?.querySelectorAll(roles[target.role]) ?? [])].find(
    (el) => nameOf(el) === target.name && el.checkVisibility({ visibilityProperty: true }) && (!control || hydrated(el)),
  )
  return found ?? null
}

/** In the page: what it says to the visitor now (alerts and status messages), for a failure's message. */
function pageMessages(): string {
  return [...document.querySelectorAll('[role="alert"], [role="status"], [aria-invalid="true"]')]
    .map((el) => (el.textContent ?? el.getAttribute('aria-label') ?? '').trim())
    .filter(Boolean)
    .join(' | ')
}

function session(driver: Driver, baseURL: string): EngineSession {
  const waitFor = async (target: Target): Promise<Control> => {
    try {
      return (await until(() => driver.find(target), Boolean, `${target.role} "${target.name}"`))!
    } catch (error) {
      const said = await driver.run(pageMessages, undefined).catch(() => '')
      throw new Error(`${driver.version}: ${(error as Error).message}${said ? `; the page says: ${said}` : ''}`)
    }
  }
  return {
    version: driver.version,
    open: (path) => driver.open(new URL(path, baseURL).href),
    run: (fn, arg) => driver.run(fn, arg),
    waitFor: async (target) => void (await waitFor(target)),
    click: async (target) => (await waitFor(target)).click(),
    type: async (target, text) => (await waitFor(target)).type(text),
    close: () => driver.close(),
  }
}

/**
 * A visitor who declined analytics, as e2e/fixtures.ts makes every Playwright test's: no consent
 * banner over the page's bottom edge, and nothing sent to /ingest.
 */
async function declineAnalytics(started: EngineSession): Promise<EngineSession> {
  await started.open('/')
  await started.run((key) => window.localStorage.setItem(key, 'denied'), CONSENT_STORAGE_KEY)
  return started
}

/** Firefox ESR, headless, driven over WebDriver BiDi. */
export const firefox: Engine = {
  name: 'Firefox ESR',
  async launch(baseURL, width) {
    const { firefox: executablePath } = await ensureOtherEngines()
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath, headless: true })
    const page = (await browser.pages())[0] ?? (await browser.newPage())
    const driver: Driver = {
      version: `Firefox ${(await browser.version()).replace(/^firefox\//i, '')}`,
      open: async (url) => void (await page.goto(url, { waitUntil: 'load' })),
      // Puppeteer's types unwrap element handles among the arguments; ours are plain data.
      run: (fn, arg) => page.evaluate(fn as (arg: unknown) => never, arg),
      async find(target) {
        const found = await page.evaluateHandle(findTarget, target)
        const handle = found.asElement() as ElementHandle<Element> | null
        if (!handle) {
          await found.dispose()
          return null
        }
        return { click: () => handle.click(), type: (text) => handle.type(text) }
      },
      close: () => browser.close(),
    }
    try {
      // Set on the page itself: the default viewport does not reach the tab Firefox opens with.
      await page.setViewport({ width, height: 844 })
      return await declineAnalytics(session(driver, baseURL))
    } catch (error) {
      await browser.close()
      throw error
    }
  },
}

/**
 * WebKitGTK's MiniBrowser, started by WebKitWebDriver on a virtual screen of its own (xvfb-run):
 * MiniBrowser has no headless mode. The driver, Xvfb and the browser run in one process group,
 * stopped together.
 */
export const webkit: Engine = {
  name: 'WebKitGTK',
  async launch(baseURL, width) {
    const engines: OtherEngines = await ensureOtherEngines()
    const port = await freePort()
    const server = spawn(engines.xvfbRun, ['-a', engines.webkitDriver, `--port=${port}`], { detached: true, stdio: ['ignore', 'ignore', 'inherit'] })
    const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()))
    const stop = async () => {
      // The whole group: xvfb-run, Xvfb, the driver and the MiniBrowser it started.
      if (server.exitCode === null && server.signalCode === null) process.kill(-server.pid!, 'SIGTERM')
      await exited
    }
    try {
      await waitForPort(port, server, 'WebKitWebDriver', 30_000)
      const browser = await new Builder()
        .usingServer(`http://127.0.0.1:${port}`)
        .disableEnvironmentOverrides()
        .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: engines.miniBrowser, args: ['--automation'] } })
        .build()
      await browser.manage().window().setRect({ width, height: 900 })
      const driver: Driver = {
        version: `WebKitGTK ${(await browser.getCapabilities()).getBrowserVersion() ?? ''}`.trim(),
        open: (url) => browser.get(url),
        run: (fn, arg) => browser.executeScript(fn, arg),
        async find(target) {
          const element = await browser.executeScript<WebElement | null>(findTarget, target)
          if (!element) return null
          return {
            async click() {
              // The site scrolls smoothly (app/globals.css): the driver's own scroll into view was
              // still moving when it judged the element, now and then "not interactable".
              await browser.executeScript((el: Element) => el.scrollIntoView({ block: 'center', behavior: 'instant' }), element)
              await element.click()
            },
            type: (text) => element.sendKeys(text),
          }
        },
        async close() {
          await browser.quit().catch(() => {})
          await stop()
        },
      }
      return await declineAnalytics(session(driver, baseURL))
    } catch (error) {
      await stop()
      throw error
    }
  },
}
