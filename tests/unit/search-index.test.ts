import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import {
  buildSearchIndex,
  excerpt,
  highlight,
  MAX_QUERY_LENGTH,
  normalizeQuery,
  search,
  type SearchDocument,
  type Segment,
} from '@/components/search/search-index'
import { sectionText } from '@/components/search/section-text'
import { SearchView } from '@/components/search/search-view'
import type { Section, SearchCopy } from '@/sanity/content/types'

// The site search's index, its answers and the page that draws them, over documents made here:
// what it finds, how it ranks, what it marks, and what it makes of queries nobody should type.

const documents: SearchDocument[] = [
  {
    path: '/blog/why-ai-interviews',
    title: 'Why we let an AI run the first interview',
    text: 'The moments that teach you most are short-lived: the week they stop logging in.',
    kind: 'article',
  },
  {
    path: '/de/blog/warum-ki-interviews',
    title: 'Warum wir das erste Interview einer KI überlassen',
    text: 'Die lehrreichsten Momente sind kurzlebig: die Woche, in der sich jemand nicht mehr einloggt.',
    kind: 'article',
  },
  {
    path: '/blog/slack-threads',
    title: 'Insights now arrive in threads',
    text: 'Each analysed conversation is one Slack message, with a webhook for your own tools.',
    kind: 'changelog',
  },
  { path: '/gdpr', title: 'GDPR', text: 'How we handle your personal data under the regulation.', kind: 'page' },
  { path: '/privacy', title: 'Privacy policy', text: 'We follow the GDPR. The GDPR gives you rights. Under the GDPR you may ask for a copy.', kind: 'page' },
]
const index = buildSearchIndex(documents)
const paths = (query: string) => search(index, normalizeQuery(query)).map((hit) => hit.path)
const marked = (segments: Segment[]) => segments.filter((segment) => segment.mark).map((segment) => segment.text)
const plain = (segments: Segment[]) => segments.map((segment) => segment.text).join('')

describe('the search index', () => {
  it('finds a post by a word of its body, in each language', () => {
    expect(paths('logging')).toEqual(['/blog/why-ai-interviews'])
    expect(paths('kurzlebig')).toEqual(['/de/blog/warum-ki-interviews'])
    expect(paths('Slack')).toEqual(['/blog/slack-threads'])
  })

  it('forgives a typo and finds a word from its beginning', () => {
    expect(paths('slak')).toEqual(['/blog/slack-threads'])
    expect(paths('kurzlebg')).toEqual(['/de/blog/warum-ki-interviews'])
    expect(paths('webh')).toEqual(['/blog/slack-threads'])
    expect(paths('gdp')).toEqual(expect.arrayContaining(['/gdpr', '/privacy']))
  })

  it('forgives one typo in a word under eight letters, not two', () => {
    const typos = buildSearchIndex([
      { path: '/a', title: 'Writing', text: 'How we write.', kind: 'page' },
      { path: '/b', title: 'Pricing', text: 'What it costs.', kind: 'page' },
    ])
    expect(search(typos, 'pricing').map((hit) => hit.path)).toEqual(['/b'])
    expect(search(typos, 'prising').map((hit) => hit.path)).toEqual(['/b'])
  })

  it('finds words with or without their accents and in any case', () => {
    expect(paths('UBERLASSEN')).toEqual(['/de/blog/warum-ki-interviews'])
  })

  it('wants every word of the query', () => {
    expect(paths('slack webhook')).toEqual(['/blog/slack-threads'])
    expect(paths('slack kurzlebig')).toEqual([])
  })

  it('ranks a title that has the word above a text that repeats it', () => {
    expect(paths('gdpr')).toEqual(['/gdpr', '/privacy'])
  })

  it('finds nothing for a word no document has', () => {
    expect(paths('xylophone')).toEqual([])
  })
})

describe('excerpts and highlighting', () => {
  it('marks the matched words, typed with a typo or as a prefix, in the title and in a short excerpt', () => {
    const [hit] = search(index, 'slak webh')
    expect(marked(hit!.excerpt)).toEqual(['Slack', 'webhook'])
    const [gdpr] = search(index, 'gdp')
    expect(marked(gdpr!.title)).toEqual(['GDPR'])
  })

  it('cuts a long text around the first match, on whole words, and says where it cut', () => {
    const long = `${'Lorem ipsum dolor sit amet. '.repeat(40)}Here the needle lies, ${'and more words follow it. '.repeat(40)}`
    const segments = excerpt(long, new Set(['needle']))
    const text = plain(segments)
    expect(marked(segments)).toEqual(['needle'])
    expect(text.startsWith('… ')).toBe(true)
    expect(text.endsWith(' …')).toBe(true)
    expect(text.length).toBeLessThan(260)
    expect(text).toMatch(/^… [A-Za-z]/)
    expect(text).toMatch(/[a-z] …$/)
  })

  it('starts at the beginning when only the title matched', () => {
    const text = plain(excerpt('First words here. And then the rest.', new Set(['absent'])))
    expect(text).toBe('First words here. And then the rest.')
  })

  it('shows the excerpt as plain text: no control or direction characters from the content', () => {
    const text = plain(excerpt('Bad\u0000 text \u202Egnp.exe here\u000B too', new Set(['text'])))
    expect(text).toBe('Bad text gnp.exe here too')
  })

  it('marks a word in a title only where the whole word matched', () => {
    expect(highlight('Slack, slackers and Slack.', new Set(['slack']))).toEqual([
      { text: 'Slack', mark: true },
      { text: ', slackers and ', mark: false },
      { text: 'Slack', mark: true },
      { text: '.', mark: false },
    ])
  })
})

describe('odd queries', () => {
  it('only spaces (of any kind) are no query: the empty state', () => {
    for (const query of ['', '   ', '\t\n', '\u00A0\u2003', '\u200B\u200B', undefined, null, []]) expect(normalizeQuery(query as never)).toBe('')
  })

  it('takes the first value when the address repeats q', () => {
    expect(normalizeQuery(['gdpr', 'slack'])).toBe('gdpr')
  })

  it('limits the length, whatever was sent, and cuts on whole characters', () => {
    expect(normalizeQuery('a'.repeat(10_000))).toHaveLength(MAX_QUERY_LENGTH)
    expect([...normalizeQuery('😀'.repeat(10_000))]).toHaveLength(MAX_QUERY_LENGTH)
    const started = performance.now()
    expect(search(index, normalizeQuery('slack '.repeat(2_000)))).toHaveLength(1)
    expect(performance.now() - started).toBeLessThan(1_000)
  })

  it('removes NUL, controls, lone surrogates and text-direction controls, and collapses spaces', () => {
    expect(normalizeQuery('sl\u0000ack\uD800 \uDC00  \u202Ewebhook\u2066')).toBe('slack webhook')
    expect(paths('sl\u0000ack\uD800')).toEqual(['/blog/slack-threads'])
    expect(normalizeQuery('\u202E\u2067')).toBe('')
    // The same sent in an address: its bytes decode to U+FFFD.
    expect(normalizeQuery(new URLSearchParams('q=sl%00ack%ED%A0%80').get('q'))).toBe('slack')
  })

  it('takes markup as words: <script> is searched for, never run or drawn as HTML', () => {
    const query = normalizeQuery('<script>alert(1)</script>')
    expect(query).toBe('<script>alert(1)</script>')
    expect(search(index, query)).toEqual([])
    const html = renderToStaticMarkup(createElement(SearchView, { copy, language: 'en', query, hits: [] }))
    expect(html).not.toContain('<script>')
    expect(html).toContain('No results for <q class="break-words">&lt;script&gt;alert(1)&lt;/script&gt;</q>')
    expect(html).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"')
  })
})

const copy: SearchCopy = {
  title: 'Search',
  label: 'Search the site',
  placeholder: 'GDPR, Slack',
  buttonLabel: 'Search',
  emptyText: 'Type a word.',
  resultCountOne: '1 result for {query}',
  resultCountMany: '{count} results for {query}',
  noResults: 'No results for {query}',
  noResultsText: 'Check the spelling.',
}

describe('the search page', () => {
  const render = (query: string) => renderToStaticMarkup(createElement(SearchView, { copy, language: 'de', query, hits: search(index, query) }))

  it('is a plain GET form to the page in its language, with one h1, a label and a length limit', () => {
    const html = render('')
    const form = html.match(/<form [^>]*>/)![0]
    expect(form).toContain('role="search"')
    expect(form).toContain('action="/de/search"')
    expect(form).toContain('method="get"')
    expect(html).toMatch(/<label for="search-query"[^>]*>Search the site<\/label>/)
    const input = html.match(/<input [^>]*>/)![0]
    for (const attribute of ['id="search-query"', 'type="search"', 'name="q"', `maxLength="${MAX_QUERY_LENGTH}"`]) expect(input).toContain(attribute)
    expect(html.match(/<h1/g)).toHaveLength(1)
    expect(html).toContain('Type a word.')
  })

  it('draws the count, each result as a link with its matched words in <mark>', () => {
    const html = render('gdpr')
    expect(html).toContain('2 results for <q class="break-words">gdpr</q>')
    expect(html).toMatch(/<a href="\/gdpr"[^>]*><mark[^>]*>GDPR<\/mark><\/a>/)
    expect(html.match(/<mark/g)!.length).toBeGreaterThanOrEqual(4)
    expect(render('slack')).toContain('1 result for')
  })
})

describe("a section's words", () => {
  it('reads the words a reader sees, paragraphs whole, and leaves out ids, addresses, icons and hidden sections', () => {
    const section = {
      _type: 'faqSection',
      _key: 'k1',
      anchorId: 'faq-anchor',
      title: 'Questions',
      items: [{ _key: 'i1', question: 'Is it GDPR-ready?', answer: 'Yes.', icon: 'shield', href: '/secret-path' }],
      body: [
        {
          _type: 'block',
          _key: 'b',
          style: 'normal',
          markDefs: [{ _key: 'm', href: 'https://x.example' }],
          children: [{ text: 'Half' }, { text: 'word and more' }],
        },
      ],
    } as unknown as Section
    const text = sectionText(section)
    expect(text.split('\n')).toEqual(['Questions', 'Is it GDPR-ready?', 'Yes.', 'Halfword and more'])
    expect(sectionText({ ...section, hidden: true } as unknown as Section)).toBe('')
  })
})
