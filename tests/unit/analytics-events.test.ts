import { describe, expect, it } from 'vitest'
import {
  DEMO_LOCATIONS,
  EVENT_NAMES,
  START_TRIAL_LOCATIONS,
  emailDomain,
  parseTrackAttribute,
  trackOn,
  waitlistJoinProperties,
} from '@/components/analytics/events'

describe('the event catalogue', () => {
  it('has exactly the events of the spec', () => {
    expect([...EVENT_NAMES].sort()).toEqual(
      [
        'contact_us_click',
        'navigation_click',
        'page_view',
        'referral_link_copied',
        'start_free_trial_click',
        'try_demo_click',
        'waitlist_confirmed',
        'waitlist_join',
        'waitlist_position_viewed',
      ].sort(),
    )
  })

  it('lists every start-free-trial location of the spec, plus the about page', () => {
    expect(Object.keys(START_TRIAL_LOCATIONS)).toEqual(['navigation', 'navigation_mobile', 'hero', 'pricing', 'pricing_cta', 'cta', 'about_cta', 'demo'])
  })

  it('lists where the demo buttons sit', () => {
    expect(Object.keys(DEMO_LOCATIONS)).toEqual(['navigation', 'navigation_mobile', 'hero', 'cta', 'footer', 'announcement'])
  })
})

describe('waitlist_join', () => {
  it.each([
    [
      { email: 'Ada@Example.COM ', company: 'Engines' },
      { has_company: true, email_domain: 'example.com' },
    ],
    [
      { email: 'solo@indie.dev', company: '   ' },
      { has_company: false, email_domain: 'indie.dev' },
    ],
    [{ email: 'solo@indie.dev' }, { has_company: false, email_domain: 'indie.dev' }],
    [
      { email: 'weird@sub@host.io', company: null },
      { has_company: false, email_domain: 'host.io' },
    ],
  ])('%o → %o', (input, expected) => {
    expect(waitlistJoinProperties(input)).toEqual(expected)
  })

  it('never carries the name, the e-mail or the company', () => {
    const input = { name: 'Ada Lovelace', email: 'ada.lovelace@engines.example', company: 'Analytical Engines Ltd' }
    const properties = waitlistJoinProperties(input)
    expect(Object.keys(properties).sort()).toEqual(['email_domain', 'has_company'])
    const serialized = JSON.stringify(properties)
    for (const secret of ['Ada', 'Lovelace', 'ada.lovelace', 'Analytical']) expect(serialized).not.toContain(secret)
  })

  it('takes the domain after the last @', () => {
    expect(emailDomain('no-at-sign')).toBe('')
    expect(emailDomain('a@B.Example')).toBe('b.example')
  })
})

describe('tracking attributes', () => {
  it('round-trip through the data-track attribute', () => {
    const attributes = trackOn('start_free_trial_click', { button_location: 'hero' })
    expect(parseTrackAttribute(attributes['data-track'])).toEqual({ event: 'start_free_trial_click', properties: { button_location: 'hero' } })
  })

  it.each([null, '', 'not json', '{"event":"made_up","properties":{}}', '{"event":"page_view"}'])('ignore %s', (value) => {
    expect(parseTrackAttribute(value)).toBeNull()
  })
})
