import { describe, expect, it, vi } from 'vitest'
import { chooseDemoWidget, loadProductWidget, productWidgetToggle } from '@/components/demo/product-widget'

describe('chooseDemoWidget: which widget the Try Demo buttons toggle', () => {
  it('uses the product widget when Site settings names an https script', () => {
    expect(chooseDemoWidget('https://app.example.com/widget.js')).toEqual({ kind: 'product', scriptUrl: 'https://app.example.com/widget.js' })
  })

  it.each([null, undefined, '', 'not a url', 'http://app.example.com/widget.js', 'javascript:alert(1)'])('uses the scripted demo for %o', (url) => {
    expect(chooseDemoWidget(url)).toEqual({ kind: 'scripted' })
  })

  it('falls back to the scripted demo once the product widget has failed', () => {
    expect(chooseDemoWidget('https://app.example.com/widget.js', true)).toEqual({ kind: 'scripted' })
  })
})

describe('productWidgetToggle', () => {
  it('finds window.HeardlyWidget.toggle and calls it on its object', () => {
    const api = {
      open: false,
      toggle() {
        this.open = !this.open
      },
    }
    const toggle = productWidgetToggle({ HeardlyWidget: api })
    toggle?.()
    expect(api.open).toBe(true)
  })

  it.each([{}, { HeardlyWidget: null }, { HeardlyWidget: {} }, { HeardlyWidget: { toggle: 'no' } }])('is null for %o', (scope) => {
    expect(productWidgetToggle(scope)).toBeNull()
  })
})

/** A document whose appended script "runs" the given snippet and fires load (or error). */
function fakeDocument(scope: Record<string, unknown>, snippet: (() => void) | 'error') {
  const appended: HTMLScriptElement[] = []
  const doc = {
    createElement: () => ({}) as HTMLScriptElement,
    head: {
      append(script: HTMLScriptElement) {
        appended.push(script)
        queueMicrotask(() => {
          if (snippet === 'error') return script.onerror?.(new Event('error'))
          snippet()
          script.onload?.(new Event('load'))
        })
      },
    },
  }
  return { doc, appended, scope }
}

describe('loadProductWidget', () => {
  it('appends the script once, then toggles the widget it defines on every press', async () => {
    const scope: Record<string, unknown> = {}
    const toggle = vi.fn()
    const { doc, appended } = fakeDocument(scope, () => (scope.HeardlyWidget = { toggle }))
    const url = 'https://app.example.com/once.js'
    const [first, second] = await Promise.all([loadProductWidget(url, doc, scope), loadProductWidget(url, doc, scope)])
    first()
    second()
    ;(await loadProductWidget(url, doc, scope))()
    expect(appended).toHaveLength(1)
    expect(appended[0]).toMatchObject({ src: url, async: true })
    expect(toggle).toHaveBeenCalledTimes(3)
  })

  it('rejects when the script loads but defines no toggle', async () => {
    const scope: Record<string, unknown> = {}
    const { doc } = fakeDocument(scope, () => (scope.SomethingElse = {}))
    await expect(loadProductWidget('https://app.example.com/other.js', doc, scope)).rejects.toThrow(/defines no window\.HeardlyWidget\.toggle\(\)/)
  })

  it('rejects when the script fails to load', async () => {
    const { doc } = fakeDocument({}, 'error')
    await expect(loadProductWidget('https://app.example.com/missing.js', doc, {})).rejects.toThrow(/could not load/)
  })
})
