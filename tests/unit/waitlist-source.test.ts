import { describe, expect, it } from 'vitest'
import { sourceFromLanding } from '@/lib/waitlist/source'

const at = (url: string, referrer = '') => sourceFromLanding(new URL(url), referrer)

describe('where a visit came from', () => {
  it('keeps the campaign tags, the referring host and the landing path; nothing else of either address', () => {
    expect(at('https://heardly.example/pricing?utm_source=newsletter&utm_medium=email&utm_campaign=launch%20week&email=ada@example.com', 'https://news.ycombinator.com/item?id=1')).toEqual({
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
