/**
 * The product's own widget, when Site settings names its script: the Try Demo buttons then
 * load that one-line snippet on first press and toggle it through the global it defines,
 * `window.HeardlyWidget.toggle()` (open if closed, close if open). Without a script, or if
 * it fails to load or defines no such global, the scripted demo conversation is used.
 */

export const PRODUCT_WIDGET_GLOBAL = 'HeardlyWidget'

/** How long a snippet may take to load before the scripted demo is shown instead. */
export const PRODUCT_WIDGET_TIMEOUT_MS = 10_000

export type DemoWidgetChoice = { kind: 'product'; scriptUrl: string } | { kind: 'scripted' }

/** Which widget a Try Demo press toggles. Only an https address is ever loaded. */
export function chooseDemoWidget(productWidgetScriptUrl: string | null | undefined, productFailed = false): DemoWidgetChoice {
  if (productFailed || !productWidgetScriptUrl) return { kind: 'scripted' }
  if (!URL.canParse(productWidgetScriptUrl)) return { kind: 'scripted' }
  const url = new URL(productWidgetScriptUrl)
  return url.protocol === 'https:' ? { kind: 'product', scriptUrl: url.href } : { kind: 'scripted' }
}

/** The snippet's toggle, if the global it should define is there and has one. */
export function productWidgetToggle(scope: object): (() => void) | null {
  const api = (scope as Record<string, unknown>)[PRODUCT_WIDGET_GLOBAL]
  if (!api || typeof api !== 'object') return null
  const toggle = (api as { toggle?: unknown }).toggle
  return typeof toggle === 'function' ? () => toggle.call(api) : null
}

type ScriptDocument = { createElement(tag: 'script'): HTMLScriptElement; head: { append(node: HTMLScriptElement): void } }

const loads = new Map<string, Promise<() => void>>()

/**
 * Appends `<script src>` once per address and resolves with a function that toggles the
 * widget (read afresh on each call, in case the snippet replaces its global).
 */
export function loadProductWidget(scriptUrl: string, doc: ScriptDocument = document, scope: object = window): Promise<() => void> {
  const known = loads.get(scriptUrl)
  if (known) return known
  const toggle = () => productWidgetToggle(scope)?.()
  const load = new Promise<() => void>((resolve, reject) => {
    if (productWidgetToggle(scope)) return resolve(toggle)
    const script = doc.createElement('script')
    const timer = setTimeout(() => reject(new Error(`${scriptUrl} did not load within ${PRODUCT_WIDGET_TIMEOUT_MS} ms`)), PRODUCT_WIDGET_TIMEOUT_MS)
    script.src = scriptUrl
    script.async = true
    script.onload = () => {
      clearTimeout(timer)
      if (productWidgetToggle(scope)) resolve(toggle)
      else reject(new Error(`${scriptUrl} loaded but defines no window.${PRODUCT_WIDGET_GLOBAL}.toggle()`))
    }
    script.onerror = () => {
      clearTimeout(timer)
      reject(new Error(`could not load ${scriptUrl}`))
    }
    doc.head.append(script)
  })
  loads.set(scriptUrl, load)
  return load
}
