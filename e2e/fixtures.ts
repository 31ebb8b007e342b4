import { readFileSync } from 'node:fs'
import { test as base, expect } from '@playwright/test'
import { parseNdjson } from '../lib/content/seed-dataset'

/** The seed documents, so tests assert what the content says rather than repeat it. */
export const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'))

export function seedDoc<T = Record<string, unknown>>(id: string): T {
  const doc = seed.find((d) => d._id === id)
  if (!doc) throw new Error(`seed has no ${id}`)
  return doc as T
}

/** Fails any test whose page throws or logs an error it did not expect. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text())
    })
    await use(errors)
  },
})

export { expect }
