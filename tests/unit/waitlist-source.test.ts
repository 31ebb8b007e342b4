import { describe, expect, it } from 'vitest'
import { readSource, recordLanding, sourceFromLanding, SOURCE_STORAGE_KEY } from '@/components/waitlist/source'

const at = (url: string, referrer = '') => sourceFromLanding(new URL(url), referrer)

describe('where a visit came from', () => {
  it('keeps the campaign tags, the referring host and the landing path; nothing else of either address', () => {
    expect(
      at(
        'https://heardly.example/pricing?utm_source=newsletter&utm_medium=email&utm_campaign=launch%20week&email=ada@example.com',
        'https://news.ycombinator.com/item?id=1',
      ),
    ).toEqual({
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'launch week',
      referrer_host: 'news.ycombinator.com',
      landing_path: '/pricing',
    })
  })

  it('ignores the site itself as a referrer, and non-web referrers', () => {
    expect(at('https://heardly.example/', 'https://heardly.example/about')).toEqual({ landing_path: '/' })
    expect(at('https://heardly.example/', 'android-app://com.slack/')).toEqual({ landing_path: '/' })
    expect(at('https://heardly.example/', 'not a url')).toEqual({ landing_path: '/' })
  })

  it('writes referring hosts as the database expects them (lower case, punycode)', () => {
    expect(at('https://heardly.example/', 'https://BÜCHER.example/x').referrer_host).toBe('xn--bcher-kva.example')
    expect(at('https://heardly.example/', 'http://[::1]:8080/').referrer_host).toBe('[::1]')
  })

  it('cleans campaign tags to what the database accepts: no controls or bidi characters, at most 100 characters', () => {
    const source = at(`https://heardly.example/?utm_source=${encodeURIComponent('a\u0000b\u202Ec')}&utm_medium=${'m'.repeat(150)}&utm_campaign=%20%20`)
    expect(source.utm_source).toBe('abc')
    expect(source.utm_medium).toHaveLength(100)
    expect(source.utm_campaign).toBeUndefined()
    expect(at(`https://heardly.example/?utm_source=${'😀'.repeat(120)}`).utm_source).toBe('😀'.repeat(100))
  })

  it('cuts a long landing path to 200 characters', () => {
    expect(at(`https://heardly.example/${'a'.repeat(300)}`).landing_path).toHaveLength(200)
  })
})

describe('the referral code of a friend’s link', () => {
  it('is kept when it has the shape the database issues, and dropped otherwise', () => {
    const code = 'Ab3_-Zz09Ab3_-Zz09Ab3_'
    expect(at(`https://heardly.example/waitlist?ref=${code}`)).toEqual({ landing_path: '/waitlist', ref: code })
    for (const bad of ['short', `${code}x`, `${code.slice(0, 21)}%E2%80%8B`, "'%20or%201=1", '']) {
      expect(at(`https://heardly.example/waitlist?ref=${bad}`).ref, bad).toBeUndefined()
    }
  })
})

describe('recordLanding in a tab', () => {
  function tab() {
    const store = new Map<string, string>()
    const sessionStorage = { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) }
    const visit = (href: string, referrer = '') => {
      Object.assign(globalThis, { window: { location: { href }, sessionStorage }, document: { referrer } })
      recordLanding()
    }
    return { visit, store }
  }

  it('keeps the first page of the visit, and the newest friend’s code however late it came', () => {
    const code = 'Ab3_-Zz09Ab3_-Zz09Ab3_'
    const { visit, store } = tab()
    visit('https://heardly.example/pricing?utm_source=newsletter', 'https://news.example/')
    visit('https://heardly.example/about')
    expect(JSON.parse(store.get(SOURCE_STORAGE_KEY)!)).toEqual({ utm_source: 'newsletter', referrer_host: 'news.example', landing_path: '/pricing' })
    visit(`https://heardly.example/waitlist?ref=${code}`)
    expect(readSource()).toEqual({ utm_source: 'newsletter', referrer_host: 'news.example', landing_path: '/pricing', ref: code })
    visit(`https://heardly.example/waitlist?ref=${code.replace('A', 'B')}`)
    expect(readSource().ref).toBe(code.replace('A', 'B'))
  })
})
