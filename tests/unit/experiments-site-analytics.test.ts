// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { writeConsent } from '@/components/analytics/consent'
import { exposuresIn, featureProperties, keepConsentCookie, labelEvents, sendExposures } from '@/components/variants/analytics'

// What the browser does for experiments: the consent cookie the server reads, and what PostHog
// hears (every event labelled with the participant's variants; one exposure per varied section).

const cookies = () =>
  Object.fromEntries(
    document.cookie
      .split(';')
      .filter(Boolean)
      .map((pair) => pair.trim().split('=') as [string, string]),
  )

afterEach(() => {
  for (const name of Object.keys(cookies())) document.cookie = `${name}=; Max-Age=0; Path=/`
  document.body.innerHTML = ''
})

describe('the consent cookie', () => {
  it('is written when the visitor accepts, and removed with the experiments cookie when they decline', async () => {
    await writeConsent('granted')
    expect(cookies()).toMatchObject({ consent: 'granted' })
    document.cookie = 'experiments=hero-headline=b; Path=/'
    await writeConsent('denied')
    expect(cookies()).toEqual({})
    expect(window.localStorage.getItem('consent:analytics')).toBe('denied')
  })

  it('is restored for a visitor who accepted before it existed, when PostHog loads for them', () => {
    keepConsentCookie()
    expect(cookies()).toEqual({ consent: 'granted' })
  })
})

describe('what PostHog hears', () => {
  it('labels every event with $feature/<key> from the experiments cookie, well-formed pairs only', () => {
    expect(featureProperties({ 'hero-headline': 'b', pricing: 'control' })).toEqual({ '$feature/hero-headline': 'b', '$feature/pricing': 'control' })
    document.cookie = 'experiments=hero-headline=b&Bad Key=x; Path=/'
    const register = vi.fn()
    labelEvents({ register })
    expect(register).toHaveBeenCalledWith({ '$feature/hero-headline': 'b' })
    document.cookie = 'experiments=; Max-Age=0; Path=/'
    register.mockClear()
    labelEvents({ register })
    expect(register).not.toHaveBeenCalled()
  })

  it('sends one exposure per varied section in view, as the server marked it', () => {
    document.body.innerHTML = `
      <div data-experiment="hero-headline" data-experiment-variant="b"><h1>Hear every user.</h1></div>
      <div data-experiment="hero-headline" data-experiment-variant="c"></div>
      <div data-experiment="pricing-copy" data-experiment-variant="control"></div>
      <div data-experiment="Bad" data-experiment-variant="b"></div>`
    expect(exposuresIn(document)).toEqual([
      { experiment: 'hero-headline', variant: 'b' },
      { experiment: 'pricing-copy', variant: 'control' },
    ])
    const capture = vi.fn()
    sendExposures({ capture } as never)
    expect(capture.mock.calls).toEqual([
      ['$feature_flag_called', { $feature_flag: 'hero-headline', $feature_flag_response: 'b' }, { send_instantly: true }],
      ['$feature_flag_called', { $feature_flag: 'pricing-copy', $feature_flag_response: 'control' }, { send_instantly: true }],
    ])
  })

  it('sends no exposure on a page without a varied section (everyone who does not take part)', () => {
    document.body.innerHTML = '<section><h1>Talk to every user.</h1></section>'
    const capture = vi.fn()
    sendExposures({ capture } as never)
    expect(capture).not.toHaveBeenCalled()
  })
})
