'use client'

import type { ReactNode } from 'react'
import { trackOn, type DemoLocation } from '@/lib/analytics/events'
import { toggleDemoWidget } from '@/lib/demo-widget'

export function DemoToggleButton({ location, className, children }: { location: DemoLocation; className?: string; children: ReactNode }) {
  return (
    <button
      type="button"
      className={className}
      data-demo-toggle={location}
      {...trackOn('try_demo_click', { button_location: location })}
      onClick={(event) => toggleDemoWidget({ location, opener: event.currentTarget })}
    >
      {children}
    </button>
  )
}
