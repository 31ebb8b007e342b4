import type { SiteLink as SiteLinkData } from '@/sanity/content'
import { cn } from '@/lib/cn'
import { trackOn, type DemoLocation } from '@/components/analytics/events'
import { DemoToggleButton } from '@/components/demo/demo-toggle-button'
import { prerenderOn } from '@/lib/prerender'

type Props = {
  link: SiteLinkData
  className?: string
  /** Where the link sits: for the demo widget and the try_demo_click event. */
  location: DemoLocation
  plannedLabel: string
  /** Navigation links record navigation_click with their label. */
  navigation?: boolean
}

/** Renders any content link by what it points to; a planned page is plain text, never a dead link. */
export function SiteLink({ link, className, location, plannedLabel, navigation = false }: Props) {
  const tracking = navigation ? trackOn('navigation_click', { menu_item: link.label }) : {}
  switch (link.kind) {
    case 'internal':
      // The navigation's pages are the likely next ones: ready before the click (components/site/speculation-rules.tsx).
      return (
        <a href={link.href} className={className} {...tracking} {...(navigation ? prerenderOn : {})}>
          {link.label}
        </a>
      )
    case 'external':
      return (
        <a href={link.href} className={className} rel="noopener noreferrer" {...tracking}>
          {link.label}
        </a>
      )
    case 'email':
      return (
        <a href={link.href} className={className} {...trackOn('contact_us_click', {})}>
          {link.label}
        </a>
      )
    case 'demo':
      return (
        <DemoToggleButton location={location} className={cn('text-left', className)}>
          {link.label}
        </DemoToggleButton>
      )
    case 'planned':
      return (
        <span className={cn(className, 'cursor-default hover:no-underline')} data-planned-link="">
          {link.label}{' '}
          <span className="ml-1 rounded-full bg-slate-100 px-1.5 py-0.5 text-[0.65rem] font-medium uppercase tracking-wide text-slate-600">{plannedLabel}</span>
        </span>
      )
  }
}
