// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isPrerendering, onShown, restartSpeculations, whenShown } from '@/lib/prerender'
import { SPECULATION_RULES } from '@/components/site/speculation-rules'

// What a prerendered page holds back until it is shown (lib/prerender.ts), as Chromium signals it:
// `document.prerendering` true until activation, then false and one `prerenderingchange`. The whole
// path in a real Chromium is e2e/prerender.spec.ts.

function prerender() {
  let state = true
  Object.defineProperty(document, 'prerendering', { configurable: true, get: () => state })
  return () => {
    state = false
    document.dispatchEvent(new Event('prerenderingchange'))
  }
}

afterEach(() => {
  delete (document as { prerendering?: boolean }).prerendering
  document.body.innerHTML = ''
})

describe('whenShown', () => {
  it('runs at once on a page that was not prerendered, and in a browser without the API', () => {
    const act = vi.fn()
    whenShown(act)
    expect(act).toHaveBeenCalledOnce()
  })

  it('waits for the activation of a prerendered page, then runs once', () => {
    const activate = prerender()
    const act = vi.fn()
    whenShown(act)
    expect(act).not.toHaveBeenCalled()
    activate()
    document.dispatchEvent(new Event('prerenderingchange'))
    expect(act).toHaveBeenCalledOnce()
  })

  it('never runs when cancelled before the page is shown (a component gone, an effect redone)', () => {
    const activate = prerender()
    const act = vi.fn()
    whenShown(act)()
    activate()
    expect(act).not.toHaveBeenCalled()
  })
})

describe('isPrerendering', () => {
  it('is true until the page is shown, and false in a browser without prerendering', () => {
    expect(isPrerendering()).toBe(false)
    const activate = prerender()
    expect(isPrerendering()).toBe(true)
    activate()
    expect(isPrerendering()).toBe(false)
  })
})

describe('onShown', () => {
  it('calls back on activation only: a page shown already has nothing to wait for', () => {
    const shown = vi.fn()
    onShown(shown)
    document.dispatchEvent(new Event('prerenderingchange'))
    expect(shown).not.toHaveBeenCalled()
    const activate = prerender()
    onShown(shown)
    activate()
    expect(shown).toHaveBeenCalledOnce()
  })
})

describe('the speculation rules', () => {
  it('prerender only marked links on this site, on a hover or a press', () => {
    expect(JSON.parse(SPECULATION_RULES)).toEqual({
      prerender: [{ where: { and: [{ href_matches: '/*' }, { selector_matches: 'a[data-prerender]' }] }, eagerness: 'moderate' }],
    })
  })

  it('are taken out on a restart and put back in a later task, in the same place, so Chromium drops what they made', async () => {
    vi.useFakeTimers()
    try {
      document.body.innerHTML = `<main></main><div hidden><script type="speculationrules">${SPECULATION_RULES}</script><span></span></div>`
      const before = document.querySelector('script[type="speculationrules"]')
      restartSpeculations()
      // Gone for the rest of this task: a copy put back at once would leave the old prerender standing.
      expect(before?.isConnected).toBe(false)
      expect(document.querySelectorAll('script[type="speculationrules"]')).toHaveLength(0)
      await vi.runAllTimersAsync()
      const after = document.querySelectorAll('script[type="speculationrules"]')
      expect(after).toHaveLength(1)
      expect(after[0]).not.toBe(before)
      expect(after[0]?.textContent).toBe(SPECULATION_RULES)
      expect(after[0]?.nextElementSibling?.tagName).toBe('SPAN')
    } finally {
      vi.useRealTimers()
    }
  })
})
