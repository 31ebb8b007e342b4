import { readFileSync } from 'node:fs'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { contentTokens, toSectionPage, toSiteSettings } from '@/sanity/content/reshape'
import { seedImagesDir, withSeedAssets } from '@/sanity/seed/assets'
import { evaluateQuery, parseNdjson } from '@/sanity/seed/dataset'
import type { Section, SectionOf } from '@/sanity/content/types'
import { landingPageQuery, siteSettingsQuery } from '@/sanity/queries'
import type { LandingPageQueryResult, SiteSettingsQueryResult } from '@/sanity/types.generated'
import { PageBuilder } from '@/components/sections/page-builder'
import { stillConversation } from '@/components/sections/hero/conversation-picture'

// The sections that show the product (the hero's picture, how it works), over the seed through
// the real GROQ, rendered as the server renders them.

// With the seed's images resolved as the embedded content mode resolves them (as Sanity would after an import).
const seed = await withSeedAssets(parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'seed'), seedImagesDir('sanity/seed/production.ndjson'))
const query = async <T,>(q: string) => (await evaluateQuery(seed, q, { language: 'en' })) as NonNullable<T>
const rawSettings = await query<SiteSettingsQueryResult>(siteSettingsQuery)
const settings = toSiteSettings(rawSettings)
const landing = toSectionPage(await query<LandingPageQueryResult>(landingPageQuery), contentTokens(rawSettings))
const context = { settings, ctaLocation: 'cta' as const }
const hero = landing.sections.find((s): s is SectionOf<'heroSection'> => s._type === 'heroSection')!
const steps = landing.sections.find((s): s is SectionOf<'stepsSection'> => s._type === 'stepsSection')!
const escape = (text: string) => renderToStaticMarkup(<>{text}</>)
const render = (section: Section) => renderToStaticMarkup(<PageBuilder title={landing.title} sections={[section]} context={context} />)

describe('the hero’s product picture', () => {
  const conversation = hero.visual!
  const doc = seed.find((d) => d._id === conversation.id) as unknown as { opening: string; steps: { replies: { text: string }[]; quoted?: boolean }[] }

  it('is the seeded demo conversation, resolved from its reference', () => {
    expect(conversation.id).toBe('demoConversation-saas')
    expect(conversation.opening).toBe(doc.opening)
  })

  it('shows the interview up to the quoted reply, and the insight quoting that reply', () => {
    const quoted = doc.steps.findIndex((step) => step.quoted)
    const { messages, quote } = stillConversation(conversation)
    expect(messages[0]).toMatchObject({ from: 'interviewer', text: doc.opening })
    expect(messages.at(-1)).toMatchObject({ from: 'visitor', text: doc.steps[quoted]!.replies[0]!.text })
    expect(messages.filter((m) => m.from === 'visitor')).toHaveLength(quoted + 1)
    expect(quote).toBe(doc.steps[quoted]!.replies[0]!.text)
  })

  it('is drawn on the server as plain HTML beside the headline: no image, no script, no button of its own', () => {
    const html = render(hero)
    const figure = html.slice(html.indexOf('<figure'), html.indexOf('</figure>'))
    expect(figure).toContain(escape(conversation.opening))
    expect(figure).toContain(escape(conversation.insight.summary))
    expect(figure).toContain(escape(conversation.insight.channel))
    expect(figure).toContain(escape(hero.visualCaption!))
    expect(figure).not.toMatch(/<(img|script|button|video)\b/)
    // The headline comes first in the document: it stays the first words on screen.
    expect(html.indexOf('<h1')).toBeLessThan(html.indexOf('<figure'))
  })

  it('without a picture, the hero keeps its centred layout', () => {
    const html = render({ ...hero, visual: null })
    expect(html).not.toContain('<figure')
    expect(html).not.toContain('lg:grid-cols')
  })
})

describe('how it works', () => {
  it('is seeded with the spec’s flow: add the snippet, the AI interviews, insights in Slack', () => {
    expect(steps.anchorId).toBe('how-it-works')
    expect(steps.steps.map((step) => step.title)).toEqual(['Add the snippet', 'The AI interviews your users', 'Insights arrive in Slack'])
  })

  it('renders an ordered list, numbered by position', () => {
    const html = render(steps)
    expect(html).toContain(`id="how-it-works-title"`)
    const items = [...html.matchAll(/<li[^>]*><span aria-hidden="true"[^>]*>(\d+)<\/span><h3[^>]*>([^<]+)<\/h3>/g)].map((m) => [m[1], m[2]])
    expect(items).toEqual(steps.steps.map((step, index) => [String(index + 1), escape(step.title)]))
    expect(html).toMatch(/<ol[^>]*>/)
  })
})

describe('pictures through the image pipeline', () => {
  const features = landing.sections.find((s): s is SectionOf<'cardGridSection'> => s._type === 'cardGridSection' && s.anchorId === 'features')!
  const images = (html: string) =>
    [...html.matchAll(/<img ([^>]*)>/g)].map((m) => Object.fromEntries([...m[1]!.matchAll(/([a-zA-Z]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])))

  it('feature rows: text beside a picture, sides alternating, each picture lazy with its size reserved', () => {
    expect(features.layout).toBe('rows')
    const html = render(features)
    const pictures = images(html)
    expect(pictures).toHaveLength(features.items.length)
    for (const [index, picture] of pictures.entries()) {
      expect(picture).toMatchObject({ alt: escape(features.items[index]!.image!.alt!), loading: 'lazy', decoding: 'async' })
      expect(Number(picture.width)).toBeGreaterThan(0)
      expect(Number(picture.height)).toBeGreaterThan(0)
      expect(picture.src).toMatch(/^\/seed-images\/feature-[a-z-]+\.svg$/)
    }
    // The second row puts its text after the picture on wide screens.
    expect([...html.matchAll(/data-feature-row=""[^>]*><div class="([^"]*)"/g)].map((m) => m[1]!.includes('lg:order-2'))).toEqual(
      features.items.map((_, i) => i % 2 === 1),
    )
  })

  it('the cards layout stays the icon grid, without pictures', () => {
    const html = render({ ...features, layout: 'cards' })
    expect(images(html)).toEqual([])
    expect(html).not.toContain('data-feature-row')
  })

  it('logos: the uploaded logo, its alternative text the company name', () => {
    const strip = landing.sections.find((s): s is SectionOf<'logoStripSection'> => s._type === 'logoStripSection')!
    const pictures = images(render(strip))
    expect(pictures.map((picture) => picture.alt)).toEqual(strip.items.map((item) => item.name))
    expect(pictures.every((picture) => picture.loading === 'lazy' && Number(picture.height) > 0)).toBe(true)
  })

  it('an image without an asset draws nothing (no broken picture)', () => {
    const html = render({ ...features, items: features.items.map((item) => ({ ...item, image: { ...item.image!, asset: null } })) })
    expect(images(html)).toEqual([])
  })
})
