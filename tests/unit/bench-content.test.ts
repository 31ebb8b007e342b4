import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { NextRequest } from 'next/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { experimentsOn } from '@/components/experiments/participation'
import { readSeedDataset } from '../../sanity/seed/dataset'
import { assertServesVariant, benchContent, variantRequestHeaders } from '../../tools/bench/bench-content'
import { editorsExample } from '../../tools/content/experiment-example'

// The bench measures the landing page as variant b beside control (tools/bench/bench.ts): its
// content must run the experiment, its requests must make the proxy rewrite to the variant, and a
// page of control must never pass for the variant.

afterEach(() => vi.unstubAllEnvs())

describe("the bench's variant page", () => {
  it("is where the proxy sends the bench's requests, over the bench's content", async () => {
    // Whatever state the guide's example is left in, the bench's copy runs it.
    const { documents, variant } = benchContent(await readSeedDataset('sanity/seed/production.ndjson'), { ...editorsExample(), state: 'draft' })
    expect(variant).toEqual({
      experiment: 'hero-headline',
      key: 'b',
      cookie: 'consent=granted; experiments=hero-headline=b',
      headline: 'Hear every user.',
      controlHeadline: 'Talk to every user.',
    })
    expect(documents.filter((doc) => doc._type === 'experiment')).toMatchObject([{ _id: 'experiment-hero-headline', state: 'running' }])

    const seedPath = path.join(await mkdtemp(path.join(tmpdir(), 'bench-content-')), 'seed.ndjson')
    await writeFile(seedPath, documents.map((doc) => JSON.stringify(doc)).join('\n'))
    vi.stubEnv('CONTENT_SEED_PATH', seedPath)
    const proxyFor = (headers: Record<string, string>) => experimentsOn(new NextRequest('http://localhost/', { headers }), 'en', '/')
    // The cookie held from an earlier visit: rewritten to variant b, and no new cookie set.
    expect(await proxyFor(variantRequestHeaders(variant))).toEqual({ varied: true, rewrite: { segment: 'en~hero-headline.b', cookie: null } })
    // Node's fetch as it comes (user agent `node`) is a crawler to the proxy, and a crawler sees control.
    expect(await proxyFor({ cookie: variant.cookie, 'user-agent': 'node' })).toEqual({ varied: true, rewrite: null })
  })

  it("passes only a document with the variant's headline and without control's", () => {
    const variant = { key: 'b', headline: "Don't guess.", controlHeadline: 'Talk to every user.' }
    expect(() => assertServesVariant('<h1>Don&#x27;t guess.</h1>', variant, 'http://localhost:3300/ (variant b)')).not.toThrow()
    expect(() => assertServesVariant('<h1>Talk to every user.</h1>', variant, 'http://localhost:3300/ (variant b)')).toThrow(
      /^http:\/\/localhost:3300\/ \(variant b\): expected variant b \(headline "Don't guess\."\) but the site served control\. Did the consent and experiments cookies reach the proxy/,
    )
    expect(() => assertServesVariant("<h1>Don't guess.</h1><p>Talk to every user.</p>", variant, 'page')).toThrow(/served control/)
    expect(() => assertServesVariant('<h1>Service unavailable</h1>', variant, 'page')).toThrow(/served neither side/)
  })
})
