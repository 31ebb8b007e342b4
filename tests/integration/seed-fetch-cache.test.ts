import { symlink, utimes, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { seedCopy } from '../helpers/seed-copy'

// Next keeps unstable_cache's entries in the build directory, across builds. This stands in for that
// store: entries keyed by the key parts, kept for the whole test, as a later build would find them.
const store = new Map<string, unknown>()
vi.mock('next/cache', () => ({
  unstable_cache: (fn: () => Promise<unknown>, keyParts: string[]) => async () => {
    const key = JSON.stringify(keyParts)
    if (!store.has(key)) store.set(key, await fn())
    return store.get(key)
  },
}))

afterEach(() => {
  vi.unstubAllEnvs()
  vi.resetModules()
})

async function siteNameFrom(seedPath: string) {
  vi.resetModules()
  vi.stubEnv('CONTENT_SEED_PATH', seedPath)
  const [{ sanityFetch }, { siteSettingsQuery }] = await Promise.all([import('@/sanity/content/fetch'), import('@/sanity/queries')])
  return (await sanityFetch({ query: siteSettingsQuery, params: { language: 'en' }, tags: ['siteSettings'], label: 'site settings' })).siteName
}

describe('seed content and the build cache', () => {
  it('an edit of the seed is read, however warm the cache from an earlier build', async () => {
    const { dir, seedPath, seed } = await seedCopy('seed-cache')
    await symlink(path.resolve('sanity/seed/images'), path.join(dir, 'images'))
    expect(await siteNameFrom(seedPath)).toBe('Heardly')
    expect(await siteNameFrom(seedPath)).toBe('Heardly')
    expect(store.size).toBeGreaterThan(0)

    // A marketer edits the seed (same length, so only the modification time tells), then rebuilds.
    await writeFile(seedPath, seed.replaceAll('"siteName":"Heardly"', '"siteName":"Heardlx"'))
    const later = new Date(Date.now() + 5_000)
    await utimes(seedPath, later, later)
    expect(await siteNameFrom(seedPath)).toBe('Heardlx')
  })
})
