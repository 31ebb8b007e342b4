import { gzipSync } from 'node:zlib'

export type PageWeight = { path: string; status: number; scripts: number; jsGzip: number; cssGzip: number; htmlGzip: number }

const gzipSize = (body: Uint8Array | string) => gzipSync(body).length

/**
 * What a browser must fetch to show and hydrate a page: the HTML, and the script and
 * stylesheet files it names. Chunks loaded later on demand (the waitlist database client,
 * analytics) are not in the HTML and so not counted: that is the point of loading them late.
 */
export async function measurePage(baseUrl: string, path: string): Promise<PageWeight> {
  const response = await fetch(new URL(path, baseUrl))
  const html = await response.text()
  // Modern browsers skip `nomodule` scripts (Next's legacy polyfills), so they are not counted.
  const scripts = [...html.matchAll(/<script([^>]*)>/g)]
    .map((m) => m[1]!)
    .filter((attributes) => !/\bnomodule\b/i.test(attributes))
    .map((attributes) => attributes.match(/\bsrc="([^"]+)"/)?.[1])
    .filter((src): src is string => Boolean(src))
  const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"|<link[^>]+href="([^"]+)"[^>]+rel="stylesheet"/g)].map((m) => (m[1] ?? m[2])!)
  const sizeOf = async (urls: string[]) => {
    let total = 0
    for (const url of new Set(urls)) total += gzipSize(new Uint8Array(await (await fetch(new URL(url, baseUrl))).arrayBuffer()))
    return total
  }
  return {
    path,
    status: response.status,
    scripts: new Set(scripts).size,
    jsGzip: await sizeOf(scripts),
    cssGzip: await sizeOf(styles),
    htmlGzip: gzipSize(html),
  }
}

export const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`
