'use client'

import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react'
import type { DemoWidgetContent } from '@/sanity/content/types'
import { demoToggle, type DemoToggleDetail } from '@/components/demo/demo-toggle'
import type { DemoWidgetProps } from './demo-widget'
import { chooseDemoWidget, loadProductWidget } from './product-widget'

const WIDGET_ID = 'demo-widget'

/**
 * Listens for the Try Demo buttons' toggle event and holds no widget code itself: the first
 * press imports the scripted demo widget (or loads the product's own widget, when Site
 * settings names its script), so neither is in the page's first-load JavaScript. It never
 * records analytics: the buttons' `data-track` attribute already did.
 */
export function DemoWidgetHost({ content, productWidgetScriptUrl }: { content: DemoWidgetContent; productWidgetScriptUrl: string | null }) {
  const [Widget, setWidget] = useState<ComponentType<DemoWidgetProps> | null>(null)
  const [open, setOpen] = useState(false)
  const [productFailed, setProductFailed] = useState(false)
  const opener = useRef<HTMLElement | null>(null)
  const scripted = chooseDemoWidget(productWidgetScriptUrl, productFailed).kind === 'scripted'

  useEffect(() => {
    const toggleScripted = (detail: DemoToggleDetail) => {
      opener.current = detail.opener
      setOpen((value) => !value)
      void import('./demo-widget').then((module) => setWidget(() => module.DemoWidget))
    }
    return demoToggle.on((detail) => {
      const choice = chooseDemoWidget(productWidgetScriptUrl, productFailed)
      if (choice.kind === 'scripted') return toggleScripted(detail)
      loadProductWidget(choice.scriptUrl).then(
        (toggle) => toggle(),
        (error: Error) => {
          console.warn(`[demo] The product widget is unavailable (${error.message}); showing the scripted demo.`)
          setProductFailed(true)
          toggleScripted(detail)
        },
      )
    })
  }, [productWidgetScriptUrl, productFailed])

  // The buttons say whether the scripted demo is open (the product widget keeps its own state).
  useEffect(() => {
    if (!scripted) return
    for (const button of document.querySelectorAll('[data-demo-toggle]')) {
      button.setAttribute('aria-expanded', String(open && Widget !== null))
      if (Widget) button.setAttribute('aria-controls', WIDGET_ID)
    }
  }, [scripted, open, Widget])

  const close = useCallback(() => {
    setOpen(false)
    returnFocus(opener.current)
  }, [])

  return Widget ? <Widget id={WIDGET_ID} content={content} open={open} onClose={close} /> : null
}

/** Back to the button that opened the demo; if a closed menu now hides it, to that menu's toggle. */
function returnFocus(element: HTMLElement | null) {
  if (!element?.isConnected) return
  const hiddenPanel = element.closest<HTMLElement>('[hidden]')
  const toggle = hiddenPanel?.id ? document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(hiddenPanel.id)}"]`) : null
  ;(toggle ?? element).focus()
}
