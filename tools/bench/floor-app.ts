import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { run } from '../local/run'

/**
 * The floor of the benchmark: the smallest App Router page Next.js can ship (a heading and
 * a paragraph, no client component), built with the very next/react/react-dom of the site.
 * Whatever the site ships above it is ours; what the floor ships is the framework's price.
 *
 * It is generated into a throwaway folder (`.local/` is git-ignored) whose `node_modules`
 * is a symlink to the project's own, so no network install and no second copy of Next:
 * the versions cannot drift from the site's.
 */

/**
 * The floor's text pages (path /text/<sections>): about 11 kB of gzipped HTML, inside the first
 * round trip of Lighthouse's slow-4G model (ten 1,460-byte TCP segments), and about 40 kB, the
 * weight of the site's home page.
 */
const FLOOR_TEXT_SECTIONS = [80, 390]
export const floorTextPaths = FLOOR_TEXT_SECTIONS.map((sections) => `/text/${sections}`)
/**
 * More sizes for the server table only (not loaded in Lighthouse), about 0.68 kB of uncompressed
 * HTML a section: each site route is held against the text page nearest its own size.
 */
const FLOOR_SERVER_SECTIONS = [20, 40, 80, 120, 160, 200, 260, 390]
export const floorServerTextPaths = FLOOR_SERVER_SECTIONS.map((sections) => `/text/${sections}`)
const ALL_TEXT_SECTIONS = [...new Set([...FLOOR_TEXT_SECTIONS, ...FLOOR_SERVER_SECTIONS])]

/** The floor's page with the site's stylesheet (`buildFloorApp`'s `siteCss`). */
export const STYLED_FLOOR_PATH = '/styled'

export type FloorVersions = { next: string; react: string; reactDom: string }

const projectRoot = process.cwd()

export const floorDir = path.join(projectRoot, '.local', 'bench-floor')

/** Versions actually installed (not the ranges in package.json): what both builds used. */
export function installedVersions(root = projectRoot): FloorVersions {
  const version = (name: string) => (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version
  return { next: version('next'), react: version('react'), reactDom: version('react-dom') }
}

// The page the site would be if it had no components of its own. Title, description and
// `lang` are server-rendered metadata (no JavaScript), so the floor's Lighthouse SEO and
// accessibility scores measure the framework, not a forgotten tag.
const files = (versions: FloorVersions, siteCss: string): Record<string, string> => ({
  'package.json': `${JSON.stringify(
    {
      name: 'bench-floor',
      private: true,
      type: 'module',
      dependencies: { next: versions.next, react: versions.react, 'react-dom': versions.reactDom },
    },
    null,
    2,
  )}\n`,
  'tsconfig.json': `${JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        lib: ['dom', 'dom.iterable', 'esnext'],
        strict: true,
        noEmit: true,
        module: 'esnext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
        isolatedModules: true,
        skipLibCheck: true,
        // What `next build` would otherwise add itself, rewriting the file and saying so.
        allowJs: true,
        incremental: true,
        esModuleInterop: true,
        resolveJsonModule: true,
        plugins: [{ name: 'next' }],
      },
      include: ['next-env.d.ts', '**/*.ts', '**/*.tsx', '.next/types/**/*.ts', '.next/dev/types/**/*.ts'],
      exclude: ['node_modules'],
    },
    null,
    2,
  )}\n`,
  // Pin Turbopack's root to the project, where the symlinked node_modules really live;
  // left to infer it, Turbopack walks up to the nearest lockfile, which is the same place
  // but prints a warning about it.
  // inlineCss as the site has it: the styled floor carries its stylesheet in a <style>, once
  // (patches/next-inline-css, applied to the shared node_modules, keeps it out of the flight data).
  'next.config.mjs': `export default { turbopack: { root: ${JSON.stringify(projectRoot)} }, experimental: { inlineCss: true } }\n`,
  'app/layout.tsx': `import type { ReactNode } from 'react'

export const metadata = { title: 'Floor', description: 'A bare Next.js App Router page: the benchmark floor.' }

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  )
}
`,
  'app/page.tsx': `export default function Page() {
  return (
    <main>
      <h1>Floor</h1>
      <p>A heading and a paragraph: what a bare App Router page costs.</p>
    </main>
  )
}
`,
  // The floor's page with the site's built stylesheet and nothing else of the site's: what styled
  // text costs the browser before any component of ours (the LCP targets' second reference).
  'app/styled/site.css': siteCss,
  'app/styled/page.tsx': `import './site.css'

export default function Page() {
  return (
    <main>
      <h1>Floor</h1>
      <p>A heading and a paragraph: what a bare App Router page costs.</p>
    </main>
  )
}
`,
  // The floor with a page's worth of words: how far the framework alone moves Lighthouse's LCP
  // when a page has real text. Plain headings and paragraphs, no CSS, no font, no client
  // component, prerendered like the site's pages; the words are pseudo-random (one fixed seed)
  // so gzip cannot fold them away as it would a repeated sentence. The lead has one typographic
  // apostrophe, as any real copy has: one character above U+00FF makes V8 hold the whole page as a
  // two-byte string, which Node then writes and Next hashes for its ETag more slowly than ASCII
  // (a 186 kB page on a bare Node server: 511 against 679 requests/s, docs/bench.md). A floor of
  // pure ASCII would measure a page no copy with a ’ or a → can be.
  'app/text/[sections]/page.tsx': `const WORDS = 'interview insight users slack agent conversation analyse product team founder signal theme quote pricing waitlist onboarding churn feature request research answer question summary pattern'.split(' ')

export const dynamicParams = false
export function generateStaticParams() {
  return ${JSON.stringify(ALL_TEXT_SECTIONS.map((sections) => ({ sections: String(sections) })))}
}

function paragraph(index: number): string {
  let seed = index * 7919 + 17
  const words: string[] = []
  for (let i = 0; i < 60; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648
    words.push(WORDS[seed % WORDS.length] + (seed % 5 === 0 ? '.' : ''))
  }
  return words.join(' ')
}

export default async function Page({ params }: { params: Promise<{ sections: string }> }) {
  const count = Number((await params).sections)
  return (
    <main>
      <h1>Floor with text</h1>
      <p>The lead paragraph of a page of plain text: headings and paragraphs, no CSS, no font, no client component, to see what the framework’s own cost is once a page has words on it.</p>
      {Array.from({ length: count }, (_, i) => (
        <section key={i}>
          <h2>Section {i + 1}</h2>
          <p>{paragraph(i)}</p>
        </section>
      ))}
    </main>
  )
}
`,
  // create-next-app ships a favicon too; without one Chromium's /favicon.ico request 404s and
  // Lighthouse's best practices mark the floor down for a console error the site does not have.
  // An icon is a static file and a <link> tag: no JavaScript.
  'app/icon.svg': '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#111"/></svg>\n',
  // Turbopack (Next 16.4.6) takes the workspace root's instrumentation.ts when the project
  // has none: without this empty one the floor would compile the site's hook (and fail on
  // its '@/' imports). Instrumentation runs on the server only; it adds no browser JavaScript.
  'instrumentation.ts': 'export function register(): void {}\n',
  // The same for the site's proxy.ts: the floor's own matches no path, so it never runs.
  'proxy.ts': "export function proxy(): void {}\nexport const config = { matcher: ['/floor-has-no-proxy'] }\n",
  // No app/not-found.tsx on purpose: unknown paths get Next's built-in 404, the floor of our 404.
})

/** The environment of the floor's build and server: none of the site's Next settings (distDir, public vars). */
function floorEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of Object.keys(env)) if (key.startsWith('NEXT_') || key.startsWith('__NEXT')) delete env[key]
  env.NEXT_TELEMETRY_DISABLED = '1'
  return env
}

/**
 * The stylesheet the site's pages carry, from its build in `distDir`: the one its prerendered home
 * page inlines (`<style data-href="/_next/static/…css">`), as built.
 */
export function siteStylesheet(distDir: string): string {
  const html = readFileSync(path.join(distDir, 'server', 'app', 'en.html'), 'utf8')
  const href = /<style[^>]*data-href="\/_next\/(static\/[^"]+\.css)"/.exec(html)?.[1]
  if (!href) throw new Error(`The site's home page in ${distDir} names no inlined stylesheet: nothing to style the floor with`)
  return readFileSync(path.join(distDir, href), 'utf8')
}

/** Writes the floor app from scratch and builds it with the project's `next` binary; `siteCss` styles its /styled page. */
export async function buildFloorApp(siteCss: string): Promise<{ versions: FloorVersions; buildSeconds: number }> {
  const versions = installedVersions()
  await rm(floorDir, { recursive: true, force: true })
  for (const [name, text] of Object.entries(files(versions, siteCss))) {
    await mkdir(path.dirname(path.join(floorDir, name)), { recursive: true })
    await writeFile(path.join(floorDir, name), text)
  }
  await symlink(path.join(projectRoot, 'node_modules'), path.join(floorDir, 'node_modules'), 'dir')
  const started = Date.now()
  await run('next', ['build', floorDir], { env: floorEnv() })
  return { versions, buildSeconds: (Date.now() - started) / 1000 }
}

export function startFloorApp(port: number): ChildProcess {
  return spawn('next', ['start', floorDir, '--port', String(port)], { stdio: 'ignore', env: floorEnv() })
}
