import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { vi } from 'vitest'

/** Next's cache handler (lib/cache/cache-handler.mjs), as much of it as the tests call. */
export type CacheConsumer = {
  get(key: string, ctx?: { softTags?: string[] }): Promise<{ value: { kind: string; data?: { body: string } } } | null>
  set(key: string, value: unknown, ctx: unknown): Promise<void>
  revalidateTag(tag: string | string[]): Promise<void>
}

/** One Next server's cache handler, as Next makes it: each import is a module (and a class) of its own. */
export async function nextLikeConsumer(): Promise<CacheConsumer> {
  vi.resetModules()
  const { default: CacheHandler } = (await import('@/lib/cache/cache-handler.mjs')) as unknown as { default: new (context: object) => CacheConsumer }
  return new CacheHandler({ serverDistDir: path.join(await mkdtemp(path.join(tmpdir(), 'next-')), 'server'), dev: false })
}

/** A data-cache entry, as Next stores a fetch's answer. */
export const fetched = (body: string) => ({ kind: 'FETCH', data: { headers: {}, body, status: 200, url: 'https://example.com' }, revalidate: 3600 })
export const withTags = (tags: string[]) => ({ fetchCache: true, tags, revalidate: 3600 })
