import { existsSync } from 'node:fs'
import { run } from './run'

const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/**
 * The browser for end-to-end tests. Playwright's own browser download is not reachable
 * from our machines, so tests drive Debian's chromium package, installed here on a fresh
 * machine (CI runs as root). CHROME_PATH points at another Chromium if you have one.
 */
export async function ensureChromium(): Promise<string> {
  const configured = process.env.CHROME_PATH
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROME_PATH=${configured} does not exist`)
    return configured
  }
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM
  if (process.getuid?.() !== 0) {
    throw new Error(`No Chromium at ${DEBIAN_CHROMIUM}. Install it (sudo apt-get install chromium) or set CHROME_PATH.`)
  }
  console.log('Installing Chromium from Debian (apt-get install chromium) for the end-to-end tests…')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  await run('apt-get', ['update', '-qq'], { env })
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { env })
  if (!existsSync(DEBIAN_CHROMIUM)) throw new Error('apt-get finished but /usr/bin/chromium is missing')
  return DEBIAN_CHROMIUM
}
