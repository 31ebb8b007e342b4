import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { htmlParts } from '../../tools/bench/page-weight'

const gzip = (text: string) => gzipSync(text).length

describe("the benchmark's split of a page's HTML", () => {
  const css = 'body{margin:0}'.repeat(20)
  const flight = 'self.__next_f.push([1,"1:I[1,[],\\"default\\"]"])'
  const head = `<!DOCTYPE html><html><head><style data-precedence="next">${css}</style></head>`
  const html = `${head}<body><h1>Words</h1><script>(self.__next_f=self.__next_f||[]).push([0])</script><script>${flight}</script><script src="/a.js" async></script></body></html>`

  it('tells the inlined CSS and the flight data from the markup', () => {
    const parts = htmlParts(html)
    expect(parts.cssGzip).toBe(gzip(css))
    expect(parts.flightGzip).toBe(gzip(`(self.__next_f=self.__next_f||[]).push([0])${flight}`))
    expect(parts.markupGzip).toBe(gzip('<!DOCTYPE html><html><head></head><body><h1>Words</h1><script src="/a.js" async></script></body></html>'))
  })

  it('says how much of the gzipped document comes before <body> and before the first <h1>', () => {
    const parts = htmlParts(html)
    expect(parts.beforeBodyGzip).toBe(gzip(head))
    expect(parts.beforeH1Gzip).toBe(gzip(`${head}<body>`))
    expect(htmlParts('<html><body><p>no heading</p></body></html>').beforeH1Gzip).toBeNull()
  })
})
