import type { OutgoingHttpHeader, ServerResponse } from 'node:http'

/** A `Vary` value's tokens, as written (`Accept` is not `Accept-Encoding`); a value may be a list of header lines. */
export function varyTokens(value: OutgoingHttpHeader | null | undefined): string[] {
  if (value === undefined || value === null) return []
  const lines = Array.isArray(value) ? value : [String(value)]
  return lines
    .flatMap((line) => line.split(','))
    .map((token) => token.trim())
    .filter(Boolean)
}

/** Both values' tokens, each once whatever its case, in the order they came: `*` alone if either has it. */
export function mergeVary(held: OutgoingHttpHeader | null | undefined, added: OutgoingHttpHeader | null | undefined): string {
  const tokens = [...varyTokens(held), ...varyTokens(added)]
  if (tokens.includes('*')) return '*'
  const seen = new Set<string>()
  return tokens.filter((token) => !seen.has(token.toLowerCase()) && seen.add(token.toLowerCase())).join(', ')
}

type VaryingResponse = Pick<ServerResponse, 'setHeader' | 'getHeader'>

/**
 * Makes `Vary` on this response add tokens instead of replacing them. proxy.ts says what a page's
 * answer depends on (`Cookie` where an experiment varies it, `Accept` where it has a Markdown
 * twin), and Next copies that onto the response, but Next 16.4's app-page handler then sets its
 * own list with `res.setHeader('Vary', …)` (node_modules/next/dist/build/templates/app-page-runtime.js),
 * which would drop ours: a shared cache in front of the site would then give one visitor's answer
 * to all. Clearing the header (removeHeader) still clears it.
 */
export function keepVaryTokens(response: VaryingResponse): void {
  const setHeader = response.setHeader
  response.setHeader = function (this: ServerResponse, name: string, value: number | string | readonly string[]) {
    if (name.toLowerCase() !== 'vary') return setHeader.call(this, name, value)
    return setHeader.call(this, name, mergeVary(this.getHeader('vary'), value as OutgoingHttpHeader))
  } as ServerResponse['setHeader']
}
