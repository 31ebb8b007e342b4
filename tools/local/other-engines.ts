import { ensureDebianBinaries } from './debian'

// Debian's library folder for this machine's architecture (where WebKitGTK keeps MiniBrowser).
const MULTIARCH = process.arch === 'arm64' ? 'aarch64-linux-gnu' : 'x86_64-linux-gnu'

/** The programs that run the end-to-end checks in Firefox and in WebKit (Safari's engine). */
export type OtherEngines = {
  /** Firefox ESR, driven by puppeteer-core over WebDriver BiDi. */
  firefox: string
  /** WebKitGTK's WebDriver server, which starts MiniBrowser. */
  webkitDriver: string
  /** WebKitGTK's MiniBrowser: no headless mode, so it draws on a virtual screen. */
  miniBrowser: string
  /** Runs a command with a virtual X screen (Xvfb) of its own. */
  xvfbRun: string
}

/**
 * Debian's Firefox ESR and WebKitGTK, and Xvfb for the latter's window, for e2e/other-engines.spec.ts.
 * Neither engine's own download is reachable from our machines (as with Chromium), so the missing
 * ones are installed here with one apt-get on a fresh machine (CI runs as root); otherwise the
 * error says how. FIREFOX_PATH, WEBKIT_WEBDRIVER and MINIBROWSER point at other installations.
 */
export async function ensureOtherEngines(): Promise<OtherEngines> {
  const env = (name: string) => ({ name, value: process.env[name] })
  const [firefox, webkitDriver, miniBrowser, xvfbRun] = await ensureDebianBinaries(
    [
      { binary: '/usr/bin/firefox-esr', pkg: 'firefox-esr', override: env('FIREFOX_PATH') },
      { binary: '/usr/bin/WebKitWebDriver', pkg: 'webkit2gtk-driver', override: env('WEBKIT_WEBDRIVER') },
      { binary: `/usr/lib/${MULTIARCH}/webkit2gtk-4.1/MiniBrowser`, pkg: 'libwebkit2gtk-4.1-0', override: env('MINIBROWSER') },
      { binary: '/usr/bin/xvfb-run', pkg: 'xvfb' },
      // xvfb-run needs it, and the xvfb package only recommends it.
      { binary: '/usr/bin/xauth', pkg: 'xauth' },
    ],
    'the end-to-end checks in Firefox and WebKit',
  )
  return { firefox: firefox!, webkitDriver: webkitDriver!, miniBrowser: miniBrowser!, xvfbRun: xvfbRun! }
}
