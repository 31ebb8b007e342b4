/**
 * `npm run test:e2e`: builds the production site for testing and runs Playwright in
 * Chromium against it (playwright.config.ts starts the servers); then a second build whose
 * content comes from a stand-in for Sanity's API, for what only happens with Sanity (the
 * time-based safety net, outages, draft preview): playwright.sanity.config.ts.
 * Arguments go to Playwright, e.g. `npm run test:e2e -- e2e/navigation.spec.ts`; naming
 * only `*.sanity.spec.ts` files runs only the second build.
 */
import { copyFile, cp, mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { readSeedDataset } from '../../sanity/seed/dataset'
import { ensureChromium, onlyDejaVuFonts } from '../local/chromium'
import { ensureOtherEngines } from '../local/other-engines'
import { E2E, E2E_SANITY, e2eEnv, e2eSanityEnv } from './e2e-env'
import { run } from '../local/run'
import { startSanityStandIn } from '../sanity-standin/sanity-standin'

const args = process.argv.slice(2)
const files = args.filter((arg) => arg.endsWith('.spec.ts'))
const sanityOnly = files.length > 0 && files.every((file) => file.endsWith('.sanity.spec.ts'))
const runMain = !sanityOnly
const runSanity = files.length === 0 || files.some((file) => file.endsWith('.sanity.spec.ts'))
const skipBuild = process.env.E2E_SKIP_BUILD === '1'
// On a clean clone (CI) no build comes after these: Turbopack's cache of them would be written for nobody (next.config.ts).
const buildEnv = (env: NodeJS.ProcessEnv) => (process.env.CI ? { ...env, NEXT_BUILD_CACHE: 'off' } : env)

const chromium = await ensureChromium()
// Firefox and WebKit for e2e/other-engines.spec.ts, installed before the run rather than while other specs run.
if (runMain && (files.length === 0 || files.some((file) => path.basename(file) === 'other-engines.spec.ts'))) await ensureOtherEngines()
await mkdir(path.dirname(E2E.seedPath), { recursive: true })
// The browser sees DejaVu only, the fonts of a fresh machine, wherever the tests run.
const browserEnv = { CHROME_PATH: chromium, FONTCONFIG_FILE: await onlyDejaVuFonts(path.dirname(E2E.seedPath)) }

if (runMain) {
  await copyFile('sanity/seed/production.ndjson', E2E.seedPath)
  // The seed's images sit beside it (image@file://./images/…), as `sanity dataset import` expects.
  await cp('sanity/seed/images', path.join(path.dirname(E2E.seedPath), 'images'), { recursive: true })
  if (!skipBuild) await run('next', ['build'], { env: buildEnv(e2eEnv()) })
  // Named files run alone: without --no-deps a serial spec would first run every spec its
  // project waits for (playwright.config.ts).
  const named = files.length > 0 ? ['--no-deps'] : []
  await run('playwright', ['test', ...named, ...args.filter((arg) => !arg.endsWith('.sanity.spec.ts'))], { env: { ...e2eEnv(), ...browserEnv } })
}

if (runSanity) {
  await writeStandInDataset()
  const standIn = await startSanityStandIn({ datasetPath: E2E_SANITY.datasetPath, port: E2E_SANITY.standInPort })
  try {
    if (!skipBuild) await run('next', ['build'], { env: buildEnv(e2eSanityEnv()) })
    const sanityArgs = sanityOnly ? args : args.filter((arg) => !arg.endsWith('.spec.ts') || arg.endsWith('.sanity.spec.ts'))
    await run('playwright', ['test', '--config', 'playwright.sanity.config.ts', ...sanityArgs], { env: { ...e2eSanityEnv(), ...browserEnv } })
  } finally {
    await standIn.close()
  }
}

/** The seed, plus what the Studio would have created: drafts, and a preview secret. */
async function writeStandInDataset() {
  const documents = await readSeedDataset('sanity/seed/production.ndjson')
  const landing = documents.find((doc) => doc._id === 'landingPage') as { sections: { _type: string }[] } & (typeof documents)[number]
  const sections = landing.sections.map((section) => (section._type === 'heroSection' ? { ...section, title: 'A draft headline only editors see.' } : section))
  const draft = { ...landing, _id: 'drafts.landingPage', sections }
  // A page never published: only draft mode shows it, at its own address.
  const careers = documents.find((doc) => doc._id === 'page-careers')!
  const unpublished = { ...careers, _id: 'drafts.page-coming-soon', title: 'Coming soon', slug: { _type: 'slug', current: 'coming-soon' } }
  const secret = {
    _id: 'sanity-preview-url-secret.e2e',
    _type: 'sanity.previewUrlSecret',
    secret: E2E_SANITY.previewSecret,
    studioUrl: '/studio',
    _updatedAt: new Date().toISOString(),
  }
  await writeFile(E2E_SANITY.datasetPath, `${[...documents, draft, unpublished, secret].map((doc) => JSON.stringify(doc)).join('\n')}\n`)
}
