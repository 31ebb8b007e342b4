'use client'

import type { ReactNode } from 'react'
import { Button, type ButtonVariantProps } from '@/components/ui/button'
import { trackOn, type DemoLocation } from '@/components/analytics/events'
import { demoToggle } from '@/components/demo/demo-toggle'

type Props = { location: DemoLocation; children: ReactNode; className?: string; appearance?: 'button' | 'text' } & ButtonVariantProps

/** Every Try Demo control. `appearance="text"` is a menu or footer link styled by its `className` alone. */
export function DemoToggleButton({ location, children, appearance = 'button', className, variant, size, width }: Props) {
  const behaviour = {
    'data-demo-toggle': location,
    ...trackOn('try_demo_click', { button_location: location }),
    onClick: (event: { currentTarget: HTMLElement }) => demoToggle.emit({ location, opener: event.currentTarget }),
  }
  if (appearance === 'text') {
    return (
      <button type="button" className={className} {...behaviour}>
        {children}
      </button>
    )
  }
  return (
    <Button variant={variant} size={size} width={width} className={className} {...behaviour}>
      {children}
    </Button>
  )
}
