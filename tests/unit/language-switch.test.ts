import { describe, expect, it, vi } from 'vitest'
import { switchLanguage } from '@/components/site/language-switch'
import { translationIn } from '@/components/seo/metadata'

// The footer switcher's server answer (GET /api/language/<code>). The content is a stand-in here;
// e2e/languages.spec.ts follows the links over the seed in Chromium, with and without JavaScript.

const SETS = [
  [
    { language: 'en', path: '/' },
    { language: 'de', path: '/de' },
  ],
  [
    { language: 'en', path: '/privacy' },
    { language: 'de', path: '/de/datenschutz' },
  ],
  [{ language: 'en', path: '/only-in-english' }],
]
const sources = { languages: async () => ['en', 'de'], translations: vi.fn(async () => SETS) }

const from = (referer: string | null, host = 'heardly.example') =>
  new Request('https://heardly.example/api/language/de', { headers: { host, ...(referer === null ? {} : { referer }) } })

describe('translationIn', () => {
  it('finds the page in the other language, both ways, and ignores a trailing slash', () => {
    expect(translationIn(SETS, '/privacy', 'de')).toBe('/de/datenschutz')
    expect(translationIn(SETS, '/de/datenschutz/', 'en')).toBe('/privacy')
    expect(translationIn(SETS, '/de', 'en')).toBe('/')
  })

  it('leads to the language’s home page where the page has no translation, or is no page', () => {
    expect(translationIn(SETS, '/only-in-english', 'de')).toBe('/de')
    expect(translationIn(SETS, '/no-such-page', 'de')).toBe('/de')
    expect(translationIn(SETS, '/de/no-such-page', 'en')).toBe('/')
  })
})

describe('GET /api/language/<code>', () => {
  it('sends the visitor to the page they were on, in that language, never cached for others', async () => {
    const response = await switchLanguage(from('https://heardly.example/privacy?x=1#top'), 'de', sources)
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/de/datenschutz')
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.headers.get('vary')).toMatch(/referer/i)
  })

  it('without a Referer (a privacy setting, a typed address), to the language’s home page', async () => {
    const response = await switchLanguage(from(null), 'de', sources)
    expect(response.headers.get('location')).toBe('/de')
  })

  it.each([
    ['another site’s page of the same path', 'https://evil.example/privacy'],
    ['a look-alike host', 'https://heardly.example.evil.example/privacy'],
    ['not a URL', 'not a url'],
    ['a protocol-relative trick', '//evil.example/privacy'],
  ])('ignores a Referer that is not this site’s (%s): only the home page', async (_, referer) => {
    const response = await switchLanguage(from(referer), 'de', sources)
    expect(response.headers.get('location')).toBe('/de')
  })

  it('never leads off the site, whatever the Referer says', async () => {
    for (const referer of [
      'https://heardly.example//evil.example',
      'https://heardly.example/%2F%2Fevil.example',
      'https://heardly.example/%E2%80%AE/privacy',
    ]) {
      const location = (await switchLanguage(from(referer), 'de', sources)).headers.get('location')!
      expect(location).toMatch(/^\/(?!\/)/)
      expect(new URL(location, 'https://heardly.example').host).toBe('heardly.example')
    }
  })

  it.each(['fr', 'DE', 'de/../en', '', 'de%00'])('answers 404 to a language the site does not speak (%s)', async (code) => {
    const response = await switchLanguage(from('https://heardly.example/privacy'), code, sources)
    expect(response.status).toBe(404)
    expect(response.headers.get('location')).toBeNull()
  })
})
