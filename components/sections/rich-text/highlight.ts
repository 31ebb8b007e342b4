import 'server-only'
import { createHighlighterCore, type HighlighterCore } from 'shiki/core'
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript'
import { CODE_LANGUAGES } from '@/sanity/sections/rich-text/rules'

// Code blocks are highlighted on the server into plain HTML with inline colours: no script and no
// stylesheet reach the page or the feed. Only the grammars the Studio offers are loaded, and the
// JavaScript regex engine needs no WebAssembly.

// The high-contrast variant: every token colour passes WCAG AA on its background (axe checks).
export const CODE_THEME = 'github-light-high-contrast'

let highlighter: Promise<HighlighterCore> | undefined

function load(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [import('shiki/dist/themes/github-light-high-contrast.mjs')],
    langs: [
      import('shiki/dist/langs/typescript.mjs'),
      import('shiki/dist/langs/javascript.mjs'),
      import('shiki/dist/langs/json.mjs'),
      import('shiki/dist/langs/shellscript.mjs'),
      import('shiki/dist/langs/sql.mjs'),
      import('shiki/dist/langs/html.mjs'),
      import('shiki/dist/langs/css.mjs'),
    ],
    engine: createJavaScriptRegexEngine(),
  })
  return highlighter
}

const OFFERED = new Set<string>(CODE_LANGUAGES.map((language) => language.value))

/**
 * A code block as HTML (`<pre class="shiki"><code>…`), every character of the code escaped. A
 * language the Studio does not offer (or "text") is shown uncoloured rather than failing the page.
 */
export async function highlightCode(code: string, language: string | undefined): Promise<string> {
  const shiki = await load()
  const lang = language && OFFERED.has(language) && language !== 'text' ? (language === 'sh' ? 'shellscript' : language) : 'text'
  return shiki.codeToHtml(code, { lang, theme: CODE_THEME })
}
