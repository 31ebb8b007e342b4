import { describe, expect, it } from 'vitest'
import { DEFAULT_LANGUAGE, isLanguageCode, isLocalizedPath, languageTag, localizePath, splitLanguage } from '@/lib/i18n/languages'
import { slugProblem } from '@/lib/content/paths'

const GERMAN = new Set(['de'])

describe('a path in a language', () => {
  it('leaves English at the addresses it always had', () => {
    for (const path of ['/', '/about', '/waitlist/confirm', '/#pricing', '/blog/page/2']) expect(localizePath(path, DEFAULT_LANGUAGE)).toBe(path)
  })

  it('puts every other language under its prefix, the home page without a trailing slash', () => {
    expect(localizePath('/', 'de')).toBe('/de')
    expect(localizePath('/about', 'de')).toBe('/de/about')
    expect(localizePath('/#pricing', 'de')).toBe('/de#pricing')
    expect(localizePath('/?ref=abc', 'de')).toBe('/de?ref=abc')
    expect(localizePath('/waitlist?ref=abc#form', 'pt-br')).toBe('/pt-br/waitlist?ref=abc#form')
  })

  it('changes nothing twice, and nothing that is not a page of the site', () => {
    expect(localizePath(localizePath('/about', 'de'), 'de')).toBe('/de/about')
    expect(localizePath('/fr/about', 'de')).toBe('/fr/about')
    for (const path of ['/studio', '/studio/structure', '/api/revalidate', '/og/en/home', '/sitemap.xml', '/robots.txt', '/seed-images/a.svg', '/ingest/e']) {
      expect(localizePath(path, 'de')).toBe(path)
      expect(isLocalizedPath(path)).toBe(false)
    }
  })

  it('leaves addresses elsewhere alone: another site, a protocol-relative one, mail', () => {
    for (const href of ['https://example.com/about', '//evil.example/about', 'mailto:a@b.example', '#pricing', 'about'])
      expect(localizePath(href, 'de')).toBe(href)
  })
})

describe('the language of a request', () => {
  it('reads the prefix of a language the site speaks, and the path within it', () => {
    expect(splitLanguage('/de', GERMAN)).toEqual({ language: 'de', path: '/' })
    expect(splitLanguage('/de/', GERMAN)).toEqual({ language: 'de', path: '/' })
    expect(splitLanguage('/de/about', GERMAN)).toEqual({ language: 'de', path: '/about' })
    expect(splitLanguage('/de/blog/category/produkt/page/2', GERMAN)).toEqual({ language: 'de', path: '/blog/category/produkt/page/2' })
  })

  it('takes anything else as English: unprefixed paths, languages it does not speak, look-alikes', () => {
    for (const path of ['/', '/about', '/fr/about', '/deutsch', '/DE/about', '/de-about', '/d%65/about', '/%64e'])
      expect(splitLanguage(path, GERMAN)).toEqual({ language: DEFAULT_LANGUAGE, path })
  })

  it('never takes English as a prefix (/en/… is not an address of its own)', () => {
    expect(splitLanguage('/en/about', new Set(['de', 'en']))).toEqual({ language: DEFAULT_LANGUAGE, path: '/en/about' })
  })
})

describe('language codes', () => {
  it.each(['de', 'fr', 'pt-br', 'zh-tw'])('accepts "%s"', (code) => expect(isLanguageCode(code)).toBe(true))

  it.each(['', 'DE', 'deu', 'german', 'de_DE', 'de-', 'de-DE', 'd', 'dé', 'de\u200b', ' de', 'de/x'])('refuses "%s"', (code) =>
    expect(isLanguageCode(code)).toBe(false),
  )

  it('keeps addresses of that shape for languages: no page may take one as its slug', () => {
    for (const slug of ['de', 'fr', 'pt-br', 'en']) expect(slugProblem(slug)).toMatch(/language code/)
    expect(slugProblem('faq')).toBeNull()
    expect(slugProblem('de-facto')).toBeNull()
  })

  it('spells them as <html lang> and hreflang do', () => {
    expect(languageTag('de')).toBe('de')
    expect(languageTag('pt-br')).toBe('pt-BR')
  })
})
