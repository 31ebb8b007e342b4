import { afterEach, describe, expect, it } from 'vitest'
import { CONSENT_CHOSEN_ATTRIBUTE, CONSENT_STORAGE_KEY, consentBootScript, readConsent } from '@/components/analytics/consent'

type Case = { name: string; stored?: string | null; storageThrows?: boolean; gpc?: boolean; dnt?: string; msDnt?: string; windowDnt?: string }

const cases: Case[] = [
  { name: 'nothing stored', stored: null },
  { name: 'granted', stored: 'granted' },
  { name: 'denied', stored: 'denied' },
  { name: 'an unknown value', stored: 'yes please' },
  { name: 'blocked storage', storageThrows: true },
  { name: 'Global Privacy Control', stored: null, gpc: true },
  { name: 'GPC over a stored grant', stored: 'granted', gpc: true },
  { name: 'Do Not Track', stored: null, dnt: '1' },
  { name: 'DNT off', stored: null, dnt: '0' },
  { name: 'old IE DNT', stored: null, msDnt: '1' },
  { name: 'window.doNotTrack', stored: 'granted', windowDnt: 'yes' },
]

function fakeWindow(c: Case) {
  const attributes = new Map<string, string>()
  const localStorage = {
    getItem(key: string) {
      if (c.storageThrows) throw new Error('SecurityError')
      return key === CONSENT_STORAGE_KEY ? (c.stored ?? null) : null
    },
  }
  const navigator = { globalPrivacyControl: c.gpc, doNotTrack: c.dnt ?? null, msDoNotTrack: c.msDnt }
  const document = { documentElement: { setAttribute: (name: string, value: string) => attributes.set(name, value) } }
  return { window: { localStorage, navigator, doNotTrack: c.windowDnt, document }, document, attributes }
}

const realWindow = globalThis.window
afterEach(() => {
  globalThis.window = realWindow
})

describe('the inline script that hides the server-rendered consent banner before paint', () => {
  it.each(cases)('agrees with the banner’s own reading: $name', (c) => {
    const fake = fakeWindow(c)
    globalThis.window = fake.window as unknown as Window & typeof globalThis
    const choice = readConsent()

    new Function('window', 'document', consentBootScript())(fake.window, fake.document)

    expect(fake.attributes.has(CONSENT_CHOSEN_ATTRIBUTE)).toBe(choice !== 'unset')
  })

  it('names nothing from the module around it, so it runs alone in the page', () => {
    // Only the parameters and browser globals it is given: a reference to a module constant or
    // import would throw in the page, and the try/catch would leave the banner showing.
    const fake = fakeWindow({ name: 'granted', stored: 'granted' })
    const run = new Function(
      'window',
      'document',
      consentBootScript()
        .replace(/^try\{/, '{')
        .replace(/\}catch\(e\)\{\}$/, '}'),
    )
    expect(() => run(fake.window, fake.document)).not.toThrow()
    expect(fake.attributes.has(CONSENT_CHOSEN_ATTRIBUTE)).toBe(true)
  })
})
