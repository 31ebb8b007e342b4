'use client'

import type { ReactNode } from 'react'
import { toggleDemoWidget } from '@/lib/demo-widget'

export function DemoToggleButton({ location, className, children }: { location: string; className?: string; children: ReactNode }) {
  return (
    <button type="button" className={className} data-demo-toggle={location} onClick={(event) => toggleDemoWidget({ location, opener: event.currentTarget })}>
      {children}
    </button>
  )
}
