import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'

// Every published page and post's Markdown twin and each language's llms.txt, built by the same
// code as the routes (components/markdown) over the seed, through the same getters as the pages.
// Each twin is held against its page: the page's h1 as the twin's one "# " heading, and every
// heading and paragraph the page draws, in the same order.

vi.mock('next/cache', () => ({ unstable_cache: (fn: () => Promise<unknown>) => fn }))

const { addresses, forgetAddresses } = await import('@/sanity/content/addresses')
const { getAboutPage, getLandingPage, getPage, getPost, getSiteSettings } = await import('@/sanity/content')
const { twinMarkdown } = await import('@/components/markdown/twin')
const { llmsResponse } = await import('@/components/markdown/llms-route')
const { PageBuilder } = await import('@/components/sections/page-builder')
const { splitLanguage } = await import('@/lib/i18n/languages')
const { twinPath } = await import('@/lib/content/paths')
const { publicEnv } = await import('@/lib/env')

forgetAddresses()
const known = await addresses()

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: ' ' }
const decode = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&(#x?[0-9a-f]+|\w+);/gi, (entity, name: string) =>
      name.startsWith('#') ? String.fromCodePoint(parseInt(name.slice(name[1] === 'x' ? 2 : 1), name[1] === 'x' ? 16 : 10)) : (ENTITIES[name] ?? entity),
    )
/** Markdown read back as words: escapes, emphasis and link addresses gone, spaces collapsed. */
const words = (markdown: string) =>
  markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\\(.)/g, '$1')
    .replace(/\*\*|(?<!\w)_|_(?!\w)/g, '')
    .replace(/\s+/g, ' ')
    .trim()
const squash = (text: string) => text.replace(/\s+/g, ' ').trim()

/** The h1, headings and paragraphs a page draws, in order (the demo's scripted picture and the table of contents aside). */
function drawnText(html: string) {
  // The sample marker is a tag of its own on the page, "(Sample)" in the twin: compared apart. What is
  // hidden from screen readers (an arrow) is decoration.
  const withoutPicture = html.replace(
    /<figure[^>]*aria-labelledby="[^"]*-visual[\s\S]*?<\/figure>|<nav[\s\S]*?<\/nav>|<span class="ml-2 rounded bg-amber-100[^>]*>[^<]*<\/span>|<span aria-hidden="true"[^>]*>[^<]*<\/span>/g,
    '',
  )
  const h1 = squash(decode(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(withoutPicture)?.[1] ?? ''))
  const texts = [...withoutPicture.matchAll(/<(h2|h3|p|blockquote)(?:\s[^>]*)?>([\s\S]*?)<\/\1>/g)]
    .map((match) => ({ heading: match[1] !== 'p' && match[1] !== 'blockquote', text: squash(decode(match[2]!)) }))
    .filter(({ text }) => text)
  return { h1, texts }
}

const titleOf = (markdown: string) => markdown.split('\n').filter((line) => line.startsWith('# '))

describe('the Markdown twin of every published page and post', () => {
  const twins = [...known.twins].sort()

  it('exist for every page and post of both languages', () => {
    expect(twins).toHaveLength(20)
    expect(twins).toEqual(
      expect.arrayContaining(['/', '/about', '/privacy', '/blog/why-ai-interviews', '/de', '/de/about', '/de/datenschutz', '/de/blog/warum-ki-interviews']),
    )
  })

  it.each(twins)('%s carries its page’s h1 as its one "# " heading, and its words in reading order', async (address) => {
    const { language, path } = splitLanguage(address, known.languages)
    const markdown = (await twinMarkdown(language, path))!.markdown
    expect(markdown).toBeTruthy()
    let read = words(markdown)
    const post = path.startsWith('/blog/') ? await getPost(path.slice('/blog/'.length), language) : null
    if (post) {
      expect(titleOf(markdown).map((line) => words(line.slice(2)))).toEqual([post.title])
      expect(read).toContain(squash(post.excerpt))
      for (const block of post.body) {
        if (block._type === 'block') expect(read).toContain(squash((block.children ?? []).map((child) => ('text' in child ? child.text : '')).join('')))
        // A post's code is fenced in its language, character for character.
        if (block._type === 'code') expect(markdown).toContain(`\`\`\`${block.language}\n${block.code}\n\`\`\``)
      }
      return
    }
    const page = path === '/' ? await getLandingPage(language) : path === '/about' ? await getAboutPage(language) : await getPage(path.slice(1), language)
    const settings = await getSiteSettings(language)
    const html = renderToStaticMarkup(<PageBuilder title={page!.title} sections={page!.sections} context={{ settings, ctaLocation: 'cta' }} />)
    const { h1, texts } = drawnText(html)
    expect(html.includes('bg-amber-100')).toBe(read.includes(`(${settings.labels.sample})`))
    read = read.replaceAll(` (${settings.labels.sample})`, '')
    expect(titleOf(markdown).map((line) => words(line.slice(2)))).toEqual([h1])
    // The headings in the page's order; the paragraphs under them (a price table gathers the plans'
    // prices and terms ahead of each plan's own words, so those are held to be there, not in order).
    let from = 0
    for (const { text, heading } of texts) {
      const at = read.indexOf(text, heading ? from : 0)
      expect(at, `"${text}" in ${address}.md${heading ? ` after character ${from}` : ''}`).toBeGreaterThanOrEqual(0)
      if (heading) from = at
    }
  })

  it('the home page’s twin carries the prices as a table and the FAQ as questions and answers', async () => {
    const markdown = (await twinMarkdown('en', '/'))!.markdown
    expect(markdown).toMatch(/^\| Starter \| Pro Plan \|\n\| --- \| --- \|\n\| Free \| \$29\/month \|$/m)
    expect(markdown).toMatch(/^### .+\?\n\n\S/m)
    // No navigation chrome, no HTML.
    expect(markdown).not.toMatch(/<[a-z/]/i)
  })

  it('an unknown or unpublished address has none', async () => {
    expect(await twinMarkdown('en', '/no-such-page')).toBeNull()
    expect(await twinMarkdown('en', '/blog/no-such-post')).toBeNull()
    expect(await twinMarkdown('de', '/privacy')).toBeNull()
  })
})

describe('llms.txt', () => {
  /** llms.txt as the llmstxt.org format reads it: the H1, the summary's blockquote, then "## " sections of link lines. */
  function parse(text: string) {
    const [title, ...rest] = text.trimEnd().split('\n\n')
    const [summary, ...sections] = rest
    return {
      title: /^# (.+)$/.exec(title!)?.[1],
      summary: /^> ([^\n]+)$/.exec(summary!)?.[1],
      sections: sections
        .join('\n\n')
        .split(/\n\n(?=## )/)
        .map((section) => {
          const [heading, ...lines] = section.split('\n').filter(Boolean)
          return {
            heading: /^## (.+)$/.exec(heading!)?.[1],
            links: lines.map((line) => {
              const match = /^- \[([^\]]+)\]\((https?:\/\/[^)\s]+)\)(?:: (.+))?$/.exec(line)
              expect(match, line).not.toBeNull()
              return { title: match![1]!, url: match![2]!, note: match![3] }
            }),
          }
        }),
    }
  }

  it.each(['en', 'de'])('in %s: the site’s name, its summary, then every page and post (their twins), the prices and the waitlist', async (language) => {
    const response = await llmsResponse(language)
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    const llms = parse(await response.text())
    const settings = await getSiteSettings(language)
    expect(llms.title).toBe(settings.siteName)
    expect(llms.summary).toMatch(/Heardly/)
    const links = llms.sections.flatMap((section) => section.links)
    const ownTwins = [...known.twins].filter((path) => splitLanguage(path, known.languages).language === language)
    for (const path of ownTwins) expect(links.map((link) => link.url)).toContain(new URL(twinPath(path), publicEnv.siteUrl).href)
    expect(llms.sections.map((section) => section.heading)).toHaveLength(5)
    const [, , , pricing, waitlist] = llms.sections
    expect(pricing!.links.map((link) => link.title)).toEqual([expect.stringMatching(/^Starter/), expect.stringMatching(/^Pro.*: .*29/)])
    expect(waitlist!.links[0]!.url).toBe(new URL(language === 'en' ? '/waitlist' : '/de/waitlist', publicEnv.siteUrl).href)
    // Every address is absolute, on this site.
    for (const link of links) expect(link.url.startsWith(publicEnv.siteUrl)).toBe(true)
  })
})
