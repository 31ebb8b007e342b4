'use client'

import type { ReactNode } from 'react'
import { trackOn, type DemoLocation } from '@/components/analytics/events'
import { demoToggle } from '@/components/demo/demo-toggle'

/**
 * Every Try Demo control. Its look is a class name the (server) caller computes, e.g.
 * `buttonVariants({ variant: 'secondary' })` or a menu link's classes: the island itself ships no
 * variant table, which keeps every page's first-load JavaScript within its budget.
 */
export function DemoToggleButton({ location, className, children }: { location: DemoLocation; className?: string; children: ReactNode }) {
  return (
    <button
      type="button"
      className={className}
      data-demo-toggle={location}
      {...trackOn('try_demo_click', { button_location: location })}
      onClick={(event) => demoToggle.emit({ location, opener: event.currentTarget })}
    >
      {children}
    </button>
  )
}
