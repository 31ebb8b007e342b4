// Run by `npm install` (package.json "postinstall"): our patch to Next.js, until upstream has it.
//
// experimental.inlineCss puts each page's stylesheet into the HTML twice: once in the <style> that
// styles the first paint and once more in the RSC flight data, as the text of that same <style>
// element (vercel/next.js#98079 and #98110, open). On this site that is 38.6 kB of CSS, about
// 8.4 kB gzipped, in every page. This applies the approach of the upstream fix pull request
// (vercel/next.js#98397, open): the flight data carries a client component that names the
// stylesheet (`InlinedStylesheet`: href, precedence, nonce) instead of its text. On the server
// it draws the <style> with the text the render just inlined; in the browser it draws the same
// element with the text of the <style> already in the document, which React adopts by its href
// (a hoisted style resource: React never re-inserts or compares it). If that <style> is missing
// it falls back to a <link>, so a page is never left unstyled.
//
// Only Turbopack's production runtime is patched: `next dev` does not inline CSS, and a webpack
// build runs the other, unpatched runtime, which never names the component.
//
// It checks the installed version first and fails the install on any other: when Next is
// upgraded, see whether vercel/next.js#98397 (or another fix of #98079) has landed; if it has,
// delete this folder and the postinstall script; if not, redo the edits below for the new
// version. tests/unit/next-inline-css-patch.test.ts checks that the edits are in place, and
// e2e/page-weight.spec.ts that every route carries its stylesheet once.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const NEXT_VERSION = '16.4.6'

const here = path.dirname(fileURLToPath(import.meta.url))
export const nextRoot = path.resolve(here, '..', '..', 'node_modules', 'next')

/** Exact text edits: `from` occurs once in the pristine file, `to` replaces it. */
export const edits = [
  {
    // renderCssResource in the server runtime Turbopack's production pages run on: the inlined
    // stylesheet becomes the client component (its text kept, per process, for the server render).
    file: 'dist/compiled/next-server/app-page-turbo.runtime.prod.js',
    from: 'a.push(n("style",{key:i,nonce:t.nonce,precedence:e,href:o},s.content))',
    to: '((globalThis[Symbol.for("next.inlinedCss")]??=new Map).set(o,s.content),a.push(n(t.componentMod.InlinedStylesheet,{key:i,nonce:t.nonce,precedence:e,href:o})))',
  },
  {
    // The app entry Turbopack bundles: it exports the client components the runtime renders.
    file: 'dist/esm/server/app-render/entry-base.js',
    from: "export { ClientPageRoot } from '../../client/components/client-page';",
    to: "export { ClientPageRoot } from '../../client/components/client-page';\nexport { InlinedStylesheet } from '../../client/components/inlined-stylesheet';",
  },
]

/** New files: the client component, as Next ships its own (an ES module and a CommonJS one). */
export const added = [
  { from: 'inlined-stylesheet.mjs', to: 'dist/esm/client/components/inlined-stylesheet.js' },
  { from: 'inlined-stylesheet.cjs', to: 'dist/client/components/inlined-stylesheet.js' },
]

export function installedNextVersion() {
  return JSON.parse(readFileSync(path.join(nextRoot, 'package.json'), 'utf8')).version
}

function apply() {
  const version = installedNextVersion()
  if (version !== NEXT_VERSION) {
    throw new Error(
      `patches/next-inline-css was written for next ${NEXT_VERSION}, and next ${version} is installed. ` +
        'If vercel/next.js#98397 (or another fix of #98079) has landed, delete patches/next-inline-css and the postinstall script; otherwise redo its edits for this version.',
    )
  }
  for (const edit of edits) {
    const file = path.join(nextRoot, edit.file)
    const text = readFileSync(file, 'utf8')
    if (text.includes(edit.to)) continue
    const found = text.split(edit.from).length - 1
    if (found !== 1) throw new Error(`patches/next-inline-css: expected the text to replace once in next/${edit.file}, found it ${found} times`)
    writeFileSync(file, text.replace(edit.from, edit.to))
  }
  for (const file of added) copyFileSync(path.join(here, file.from), path.join(nextRoot, file.to))
}

if (process.argv[1] === fileURLToPath(import.meta.url)) apply()
