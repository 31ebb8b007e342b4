import { expect } from 'vitest'

// Reading the console's page (tools/owner/console/page.ts) as a person would: a table's cells as text.

const ENTITY: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" }
export const text = (markup: string) => markup.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITY[entity]!)

/** The body rows of the table the page labels `label`, as the cells' text. */
export function tableRows(page: string, label: string): string[][] {
  const start = page.indexOf(`role="region" aria-label="${label}"`)
  expect(start, `a table labelled ${label}`).toBeGreaterThan(-1)
  const body = page.slice(page.indexOf('<tbody>', start), page.indexOf('</tbody>', start))
  return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map(([, row]) => [...row!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map(([, cell]) => text(cell!)))
}
