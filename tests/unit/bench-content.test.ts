import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { NextRequest } from 'next/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { experimentsOn } from '@/components/variants/participation'
import { readSeedDataset } from '../../sanity/seed/dataset'
import { proxy } from '@/proxy'
import { forgetAddresses } from '@/sanity/content/addresses'
import { assertServesVariant, benchContent, measuredVariant, variantQuery, variantRequestHeaders, type PageVariant } from '../../tools/bench/bench-content'
import { editorsCampaignExample, editorsExample } from '../../tools/content/experiment-example'
import { routeLabel } from '../../tools/bench/quality-budget'

// The bench measures the landing page as variant b and as a campaign's visitors get it, beside
// control (tools/bench/bench.ts): its content must run the experiment and publish the campaign,
// its requests must make the proxy rewrite to each version, and a page of control must never pass
// for either.

const bench = async () =>
  benchContent(await readSeedDataset('sanity/seed/production.ndjson'), { ...editorsExample(), state: 'draft' }, editorsCampaignExample())

/** The bench's content as the site's content (CONTENT_SEED_PATH), read afresh. */
async function serveBenchContent(documents: readonly object[]): Promise<void> {
  const seedPath = path.join(await mkdtemp(path.join(tmpdir(), 'bench-content-')), 'seed.ndjson')
  await writeFile(seedPath, documents.map((doc) => JSON.stringify(doc)).join('\n'))
  vi.stubEnv('CONTENT_SEED_PATH', seedPath)
  forgetAddresses()
}

afterEach(() => vi.unstubAllEnvs())

describe("the bench's variant page", () => {
  it("is where the proxy sends the bench's requests, over the bench's content", async () => {
    // Whatever state the guide's example is left in, the bench's copy runs it.
    const { documents, variant } = await bench()
    expect(variant).toEqual({
      experiment: 'hero-headline',
      key: 'b',
      cookie: 'consent=granted; experiments=hero-headline=b',
      headline: 'Hear every user.',
      controlHeadline: 'Talk to every user.',
    })
    expect(documents.filter((doc) => doc._type === 'experiment')).toMatchObject([{ _id: 'experiment-hero-headline', state: 'running' }])
    expect(variantQuery(variant)).toBe('')

    await serveBenchContent(documents)
    const proxyFor = (headers: Record<string, string>) => experimentsOn(new NextRequest('http://localhost/', { headers }), 'en', '/')
    // The cookie held from an earlier visit: rewritten to variant b, and no new cookie set.
    expect(await proxyFor(variantRequestHeaders(variant))).toEqual({ varied: true, rewrite: { segment: 'en~hero-headline.b', cookie: null } })
    // Node's fetch as it comes (user agent `node`) is a crawler to the proxy, and a crawler sees control.
    expect(await proxyFor({ cookie: (variant as { cookie: string }).cookie, 'user-agent': 'node' })).toEqual({ varied: true, rewrite: null })
  })
})

describe("the bench's campaign page", () => {
  it("is where the proxy sends the bench's requests, by the campaign's tags alone", async () => {
    const { documents, campaign } = await bench()
    expect(campaign).toEqual({
      campaign: 'pm-linkedin-hero',
      query: '?utm_campaign=pm-linkedin',
      headline: editorsCampaignExample().sections.find((section) => section.language === 'en')!.sections[0]!.title,
      controlHeadline: 'Talk to every user.',
    })
    expect(routeLabel({ path: '/', variant: measuredVariant(campaign) })).toBe('/ (campaign pm-linkedin-hero)')
    expect(measuredVariant(campaign)).toEqual({ campaign: 'pm-linkedin-hero', query: '?utm_campaign=pm-linkedin' })
    expect(documents.filter((doc) => doc._type === 'campaign')).toMatchObject([{ _id: 'campaign-pm-linkedin-hero' }])

    await serveBenchContent(documents)
    const rewriteFor = async (headers: Record<string, string>) =>
      (await proxy(new NextRequest(`http://localhost/${variantQuery(campaign)}`, { headers }))).headers.get('x-middleware-rewrite')
    // No cookie: the address and a browser's user agent are the whole request.
    const headers = variantRequestHeaders(campaign)
    expect(headers).not.toHaveProperty('cookie')
    expect(new URL((await rewriteFor(headers))!).pathname).toBe('/en~_pm-linkedin-hero')
    // As Node's fetch comes, a crawler: the page as published.
    expect(new URL((await rewriteFor({ 'user-agent': 'node' }))!).pathname).toBe('/en')
  })

  it("passes only a document with the version's headline and without control's", () => {
    const campaign: PageVariant = {
      campaign: 'pm-linkedin-hero',
      query: '?utm_campaign=pm-linkedin',
      headline: 'Your roadmap.',
      controlHeadline: 'Talk to every user.',
    }
    expect(() => assertServesVariant('<h1>Your roadmap.</h1>', campaign, 'page')).not.toThrow()
    expect(() => assertServesVariant('<h1>Talk to every user.</h1>', campaign, 'http://localhost:3300/ (campaign pm-linkedin-hero)')).toThrow(
      /^http:\/\/localhost:3300\/ \(campaign pm-linkedin-hero\): expected campaign version pm-linkedin-hero \(headline "Your roadmap\."\) but the site served control\. Did the address's tags \(\?utm_campaign=pm-linkedin\)/,
    )
  })
})

describe("the bench's variant page, checked", () => {
  it("passes only a document with the variant's headline and without control's", () => {
    const variant: PageVariant = { experiment: 'hero-headline', key: 'b', cookie: '', headline: "Don't guess.", controlHeadline: 'Talk to every user.' }
    expect(() => assertServesVariant('<h1>Don&#x27;t guess.</h1>', variant, 'http://localhost:3300/ (variant b)')).not.toThrow()
    expect(() => assertServesVariant('<h1>Talk to every user.</h1>', variant, 'http://localhost:3300/ (variant b)')).toThrow(
      /^http:\/\/localhost:3300\/ \(variant b\): expected variant b \(headline "Don't guess\."\) but the site served control\. Did the consent and experiments cookies reach the proxy/,
    )
    expect(() => assertServesVariant("<h1>Don't guess.</h1><p>Talk to every user.</p>", variant, 'page')).toThrow(/served control/)
    expect(() => assertServesVariant('<h1>Service unavailable</h1>', variant, 'page')).toThrow(/served neither side/)
  })
})
