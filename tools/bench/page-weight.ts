import { gzipSync } from 'node:zlib'

/**
 * What a modern browser must fetch to show and hydrate a page, in gzip bytes.
 *
 * First-load JavaScript is every script the HTML names (Next's async chunk tags) plus any
 * script Chromium actually requested before the page's `load` event on a fresh load (taken
 * from Lighthouse's network log by the caller). The two lists are compared: scripts named
 * only in the HTML, or fetched only by the browser (a chunk the runtime loads itself), are
 * reported, and both count. Chunks loaded after `load` without any interaction (Next's
 * viewport prefetch of linked routes) or on demand (the waitlist database client, the demo
 * widget, analytics after consent) are not first-load: loading them late is the point.
 *
 * Sizes are our own gzip (level 6, the default of Node and of Next's `compress`) of each
 * file's body, so they do not depend on headers or on the server's compression setting.
 */
export type PageWeight = {
  path: string
  status: number
  /** The document as served (a variant page is checked against it). */
  html: string
  /** Absolute URLs of the scripts in the HTML, without `nomodule` ones (modern browsers skip those: Next's legacy polyfills). */
  htmlScripts: string[]
  styles: string[]
  /** The stylesheets the HTML links. */
  cssGzip: number
  /** The `<style>` elements in the HTML (already counted in htmlGzip; shown apart to tell where the CSS went). */
  inlineCssGzip: number
  htmlGzip: number
  parts: HtmlParts
}

/**
 * The HTML document split into what it carries, each part gzipped on its own (so the parts add
 * up to a little more than the whole): the stylesheets inlined in `<style>`, the RSC flight data
 * (Next's inline `self.__next_f.push(…)` scripts, what React hydrates from) and the markup (all
 * the rest: elements, words, attributes, other inline scripts). And how much of the gzipped
 * document comes before `<body>` and before the first `<h1>`: under applied throttling the
 * browser paints as the bytes arrive, so these are what a first paint waits for.
 */
export type HtmlParts = { markupGzip: number; cssGzip: number; flightGzip: number; beforeBodyGzip: number; beforeH1Gzip: number | null }

export type FirstLoadJs = {
  scripts: number
  /** Their URLs, sorted: a variant page must load exactly control's. */
  urls: string[]
  jsGzip: number
  /** Named in the HTML but not requested by Chromium before `load`. */
  htmlOnly: string[]
  /** Requested by Chromium before `load` but not named in the HTML. */
  browserOnly: string[]
}

const gzipSize = (body: Uint8Array | string) => gzipSync(body).length

/** `headers` go with the document's request only (a variant page's cookies); its scripts and stylesheets are the same files for everyone. */
export async function measurePage(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<PageWeight> {
  const response = await fetch(new URL(path, baseUrl), { headers })
  const html = await response.text()
  const absolute = (url: string) => new URL(decodeEntities(url), baseUrl).href
  const scripts = [...html.matchAll(/<script\b([^>]*)>/gi)]
    .map((m) => m[1]!)
    .filter((attributes) => !/\bnomodule\b/i.test(attributes))
    .map((attributes) => attributes.match(/\bsrc="([^"]+)"/i)?.[1])
    .filter((src): src is string => Boolean(src))
    .map(absolute)
  const styles = [...html.matchAll(/<link\b[^>]*>/gi)]
    .map((m) => m[0])
    .filter((tag) => /\brel="stylesheet"/i.test(tag))
    .map((tag) => tag.match(/\bhref="([^"]+)"/i)?.[1])
    .filter((href): href is string => Boolean(href))
    .map(absolute)
  return {
    path,
    status: response.status,
    html,
    htmlScripts: [...new Set(scripts)],
    styles: [...new Set(styles)],
    cssGzip: await gzipSizeOf(styles),
    inlineCssGzip: gzipSize([...html.matchAll(STYLE)].map((m) => m[1]!).join('')),
    htmlGzip: gzipSize(html),
    parts: htmlParts(html),
  }
}

const STYLE = /<style\b[^>]*>([\s\S]*?)<\/style>/gi
const FLIGHT = /<script>((?:\(self\.__next_f=self\.__next_f\|\|\[\]\)|self\.__next_f)\.push\([\s\S]*?)<\/script>/g

export function htmlParts(html: string): HtmlParts {
  const css = [...html.matchAll(STYLE)].map((m) => m[1]!).join('')
  const flight = [...html.matchAll(FLIGHT)].map((m) => m[1]!).join('')
  const markup = html.replace(STYLE, '').replace(FLIGHT, '')
  // Gzip of a prefix, without the end of stream: how far into the compressed document a part starts.
  const prefix = (end: number) => gzipSize(html.slice(0, end))
  const body = html.search(/<body\b/i)
  const h1 = html.search(/<h1\b/i)
  return {
    markupGzip: gzipSize(markup),
    cssGzip: css ? gzipSize(css) : 0,
    flightGzip: flight ? gzipSize(flight) : 0,
    beforeBodyGzip: prefix(body < 0 ? html.length : body),
    beforeH1Gzip: h1 < 0 ? null : prefix(h1),
  }
}

/** First-load JS of a page: the union of the HTML's scripts and those Chromium fetched before `load`. */
export async function firstLoadJs(page: PageWeight, browserScripts: string[]): Promise<FirstLoadJs> {
  const html = new Set(page.htmlScripts)
  const browser = new Set(browserScripts)
  const all = [...new Set([...html, ...browser])]
  return {
    scripts: all.length,
    urls: [...all].sort(),
    jsGzip: await gzipSizeOf(all),
    htmlOnly: [...html].filter((url) => !browser.has(url)),
    browserOnly: [...browser].filter((url) => !html.has(url)),
  }
}

export async function gzipSizeOf(urls: string[]): Promise<number> {
  let total = 0
  for (const url of new Set(urls)) {
    const response = await fetch(url)
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    total += gzipSize(new Uint8Array(await response.arrayBuffer()))
  }
  return total
}

// Attribute values in HTML may carry entities (`&amp;` in a query string), and text the ones React writes (`&#x27;`).
export const decodeEntities = (value: string) =>
  value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")

export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
