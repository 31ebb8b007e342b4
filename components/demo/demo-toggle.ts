import { islandEvent } from '@/lib/island-event'

/**
 * The Try Demo buttons and the demo widget never import each other: buttons announce a
 * toggle, and whichever widget is on the page (the authored demo or the product's own)
 * listens. With no widget on the page the toggle has no listener.
 */
export type DemoToggleDetail = { location: string; opener: HTMLElement | null }

export const demoToggle = islandEvent<DemoToggleDetail>('demo-widget:toggle')
