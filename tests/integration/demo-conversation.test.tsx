import { readFileSync } from 'node:fs'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { DemoWidget } from '@/components/demo/demo-widget'
import { playDemo } from '@/components/demo/demo-script'
import type { DemoConversationQueryResult, SiteSettingsQueryResult } from '@/sanity/types.generated'
import { evaluateQuery, parseNdjson, type SeedDocument } from '@/sanity/seed/dataset'
import { toDemoConversation, toSiteSettings } from '@/sanity/content/reshape'
import { demoConversationQuery, siteSettingsQuery } from '@/sanity/queries'
import { schemaTypes } from '@/sanity/schemaTypes'
import { validateDocuments } from '@/sanity/validate-documents'

// The demo widget's content, read from the seed dataset through the site's own query and
// reshape (groq-js), and checked against the raw documents rather than repeated copy.

const seed = parseNdjson(readFileSync('sanity/seed/production.ndjson', 'utf8'), 'seed')
const doc = <T,>(id: string) => seed.find((d) => d._id === id) as unknown as T

type RawReply = { _key: string; text: string; followUp?: string }
type RawStep = { _key: string; replies: RawReply[]; followUp?: string; quoted?: boolean }
type RawConversation = SeedDocument & { title: string; context: string; opening: string; steps: RawStep[]; insight: Record<string, unknown> }

const landing = doc<{ demo: { _ref: string } }>('landingPage')
const chosen = doc<RawConversation>(landing.demo._ref)
const settings = toSiteSettings((await evaluateQuery(seed, siteSettingsQuery, { language: 'en' })) as NonNullable<SiteSettingsQueryResult>, 'en', 2026)
const conversation = toDemoConversation((await evaluateQuery(seed, demoConversationQuery, { language: 'en' })) as NonNullable<DemoConversationQueryResult>)
const content = { copy: settings.demoWidget, conversation, sender: settings.siteName, language: 'en' }

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;')

describe('demo conversations in the seed', () => {
  const conversations = seed.filter((d) => d._type === 'demoConversation') as RawConversation[]

  it('has at least two, one for a SaaS product and one for an e-commerce store', () => {
    expect(conversations.length).toBeGreaterThanOrEqual(2)
    expect(conversations.map((c) => c.title)).toEqual(expect.arrayContaining([expect.stringMatching(/SaaS/), expect.stringMatching(/E-commerce/)]))
  })

  it('every one plays through to an insight, whichever replies are chosen', async () => {
    for (const raw of conversations) {
      const query = demoConversationQuery.replace(/^\*\[_type == "landingPage".*?\]\[0\]\.demo->/, `*[_id == "${raw._id}"][0]`)
      const played = toDemoConversation((await evaluateQuery(seed, query)) as NonNullable<DemoConversationQueryResult>)
      for (const pick of [0, 1, 2]) {
        const choices = played.steps.map((step) => Math.min(pick, step.replies.length - 1))
        const state = playDemo(played, choices)
        expect(state.replies).toBeNull()
        // Opening, then a reply and a follow-up per step: no reply leads nowhere.
        expect(state.messages).toHaveLength(1 + 2 * played.steps.length)
        expect(state.messages.every((m) => m.text.trim() !== '')).toBe(true)
        expect(state.quote).toBe(raw.steps.find((step) => step.quoted)!.replies[choices[played.quotedStep]!]!.text)
      }
    }
  })
})

describe('the landing page’s demo, through demoConversationQuery and reshape', () => {
  it('is the conversation the landing page document points at, complete', () => {
    expect(conversation.id).toBe(chosen._id)
    expect(conversation.context).toBe(chosen.context)
    expect(conversation.opening).toBe(chosen.opening)
    expect(conversation.steps.map((s) => s.replies.map((r) => r.text))).toEqual(chosen.steps.map((s) => s.replies.map((r) => r.text)))
    expect(conversation.insight).toEqual(chosen.insight)
    expect(conversation.quotedStep).toBe(chosen.steps.findIndex((s) => s.quoted))
  })

  it('comes with the widget’s words from Site settings, and no product widget by default', () => {
    const raw = doc<{ demoWidget: Record<string, unknown>; productWidgetScriptUrl?: string }>('siteSettings')
    expect(settings.demoWidget).toEqual(raw.demoWidget)
    expect(settings.demoWidget.note).toBe('This is a scripted demo: nothing you choose is sent anywhere.')
    expect(settings.productWidgetScriptUrl).toBeNull()
  })

  it('renders from its document: labelled dialog, demo badge, note, opening question and the first replies', () => {
    const html = renderToStaticMarkup(<DemoWidget id="demo-widget" content={content} open onClose={() => {}} />)
    expect(html).toMatch(/role="dialog"/)
    expect(html).toContain(`data-demo-widget="${chosen._id}"`)
    for (const text of [
      settings.demoWidget.title,
      settings.demoWidget.badge,
      settings.demoWidget.note,
      settings.demoWidget.chooseReplyLabel,
      chosen.context,
      chosen.opening,
    ]) {
      expect(html).toContain(escapeHtml(text))
    }
    expect(html).toContain(`aria-label="${escapeHtml(settings.demoWidget.closeLabel)}"`)
    for (const reply of chosen.steps[0]!.replies) expect(html).toContain(escapeHtml(reply.text))
    // Later steps and the insight wait for the visitor's choices.
    expect(html).not.toContain(escapeHtml(chosen.steps[1]!.replies[0]!.text))
    expect(html).not.toContain('data-demo-insight')
  })

  it('is hidden, not unmounted, when closed', () => {
    expect(renderToStaticMarkup(<DemoWidget id="demo-widget" content={content} open={false} onClose={() => {}} />)).toMatch(
      /<div id="demo-widget" role="dialog"[^>]* hidden=""/,
    )
  })
})

describe('the schema’s demo rules catch broken conversations', () => {
  const broken = (change: (c: RawConversation) => RawConversation) =>
    validateDocuments(
      schemaTypes as never,
      seed.map((d) => (d._id === chosen._id ? change(structuredClone(d) as RawConversation) : d)),
    )

  it('a reply with no follow-up and no shared one', async () => {
    await expect(
      broken((c) => {
        c.steps[0]!.replies[0]!.followUp = undefined
        c.steps[0]!.followUp = undefined
        return c
      }),
    ).resolves.toEqual([`${chosen._id}.steps[0]: Write a shared follow-up, or a follow-up for every reply`])
  })

  it('no quoted step, one reply only, four replies, a channel without #', async () => {
    expect(
      (
        await broken((c) => {
          c.steps = c.steps.map((s) => ({ ...s, quoted: false }))
          c.steps[1]!.replies = c.steps[1]!.replies.slice(0, 1)
          c.steps[2]!.replies = [...c.steps[2]!.replies, { ...c.steps[2]!.replies[0]!, _key: 'extra' }]
          c.insight = { ...c.insight, channel: 'product insights' }
          return c
        })
      ).sort(),
    ).toEqual(
      [
        `${chosen._id}.insight.channel: Start with # and use lower-case letters, digits, - or _`,
        `${chosen._id}.steps: Mark exactly one step with "Quote this reply in the insight"`,
        `${chosen._id}.steps[1].replies: shorter than 2`,
        `${chosen._id}.steps[2].replies: longer than 3`,
      ].sort(),
    )
  })

  it('a landing page without a demo', async () => {
    const problems = await validateDocuments(
      schemaTypes as never,
      seed.map((d) => (d._id === 'landingPage' ? { ...d, demo: undefined } : d)),
    )
    expect(problems).toEqual(['landingPage.demo: required'])
  })
})
