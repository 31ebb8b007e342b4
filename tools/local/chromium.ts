import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { aptInstall, ensureDebianBinary } from './debian'

const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/**
 * The browser for end-to-end tests. Playwright's own browser download is not reachable
 * from our machines, so tests drive Debian's chromium package, installed here on a fresh
 * machine (CI runs as root). CHROME_PATH points at another Chromium if you have one.
 */
export function ensureChromium(): Promise<string> {
  return ensureDebianBinary({
    binary: DEBIAN_CHROMIUM,
    pkg: 'chromium',
    override: { name: 'CHROME_PATH', value: process.env.CHROME_PATH },
    purpose: 'the end-to-end tests',
  })
}

/**
 * Chromium's flags for a quiet offline run, whoever drives it (Playwright, Lighthouse, Puppeteer):
 * without the `--disable-*` ones Chromium keeps calling Google hosts this network refuses (noise in
 * every network log). `--no-sandbox` because tests and the bench may run as root.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

/** Debian's DejaVu fonts: what Chromium's own dependencies bring to a fresh machine (fonts-dejavu-core). */
export const DEJAVU_DIR = '/usr/share/fonts/truetype/dejavu'

/**
 * A fontconfig file that shows the browser DejaVu and nothing else, for `FONTCONFIG_FILE`. A fresh
 * machine (and so CI) has only DejaVu; a developer's machine may have Liberation, Noto or others,
 * which lay text out narrower. With this every machine draws the tests' pages in the same fonts, so
 * no verdict depends on what happens to be installed. Installs fonts-dejavu-core when it is missing
 * and we are root, as on a fresh machine with Chromium from elsewhere.
 */
export async function onlyDejaVuFonts(dir: string): Promise<string> {
  if (!existsSync(path.join(DEJAVU_DIR, 'DejaVuSans.ttf'))) {
    if (process.getuid?.() !== 0) throw new Error(`No DejaVu fonts in ${DEJAVU_DIR}. Install them (sudo apt-get install fonts-dejavu-core).`)
    console.log('Installing the DejaVu fonts from Debian (apt-get install fonts-dejavu-core) for the end-to-end tests…')
    await aptInstall('fonts-dejavu-core')
  }
  await mkdir(dir, { recursive: true })
  const file = path.resolve(dir, 'fonts.conf')
  const alias = (generic: string, family: string) => `  <alias binding="same"><family>${generic}</family><prefer><family>${family}</family></prefer></alias>`
  await writeFile(
    file,
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
      '<fontconfig>',
      `  <dir>${DEJAVU_DIR}</dir>`,
      `  <cachedir>${path.resolve(dir, 'fontconfig-cache')}</cachedir>`,
      ...['sans-serif', 'system-ui', 'ui-sans-serif'].map((generic) => alias(generic, 'DejaVu Sans')),
      alias('serif', 'DejaVu Serif'),
      ...['monospace', 'ui-monospace'].map((generic) => alias(generic, 'DejaVu Sans Mono')),
      '</fontconfig>',
      '',
    ].join('\n'),
  )
  return file
}
